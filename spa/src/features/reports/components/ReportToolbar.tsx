import { Button, Group, Select } from "@mantine/core";
import { IconDownload, IconFileSpreadsheet } from "@tabler/icons-react";

/** A report's year selector and its CSV and Excel exports (Load Planning, Room Utilisation). */
export function ReportToolbar({
  years,
  year,
  onYear,
  onExport,
}: {
  years: number[];
  year: number;
  onYear: (year: number) => void;
  onExport: (format: "csv" | "xlsx") => void;
}) {
  return (
    <Group justify="space-between" align="flex-end">
      <Select label="Year" w={140} data={years.map(String)} value={String(year)} onChange={(v) => v && onYear(Number(v))} allowDeselect={false} />
      <Group>
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => onExport("csv")}>
          Export CSV
        </Button>
        <Button variant="light" leftSection={<IconFileSpreadsheet size={16} />} onClick={() => onExport("xlsx")}>
          Export Excel
        </Button>
      </Group>
    </Group>
  );
}
