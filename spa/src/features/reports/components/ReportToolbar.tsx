import { Button, Group, Select } from "@mantine/core";
import { IconDownload, IconFileSpreadsheet } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";

export type ExportFormat = "csv" | "xlsx";

/** The year a report shows, this year at first; `current` is this year, for the year choices. */
export function useReportYear() {
  const current = dayjs().year();
  const [year, setYear] = useState(current);
  return { current, year, setYear };
}

/**
 * A report's year selector and its exports: CSV and Excel (Load Planning, Room Utilisation), or CSV only
 * (`formats`; Teacher Workload, Scheduling Summary), disabled while there is nothing to export.
 */
export function ReportToolbar({
  years,
  year,
  onYear,
  onExport,
  formats = ["csv", "xlsx"],
  exportDisabled,
}: {
  years: number[];
  year: number;
  onYear: (year: number) => void;
  onExport: (format: ExportFormat) => void;
  formats?: ExportFormat[];
  exportDisabled?: boolean;
}) {
  const buttons = formats.map((format) =>
    format === "csv" ? (
      <Button key={format} variant="light" leftSection={<IconDownload size={16} />} onClick={() => onExport("csv")} disabled={exportDisabled}>
        Export CSV
      </Button>
    ) : (
      <Button key={format} variant="light" leftSection={<IconFileSpreadsheet size={16} />} onClick={() => onExport("xlsx")} disabled={exportDisabled}>
        Export Excel
      </Button>
    ),
  );
  return (
    <Group justify="space-between" align="flex-end">
      <Select label="Year" w={140} data={years.map(String)} value={String(year)} onChange={(v) => v && onYear(Number(v))} allowDeselect={false} />
      {buttons.length > 1 ? <Group>{buttons}</Group> : buttons}
    </Group>
  );
}
