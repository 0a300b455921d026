import { Button, Card, Group, Stack, Text } from "@mantine/core";
import { DataTable } from "@/components/DataTable";
import { Notice } from "@/components/Notice";
import { IconDownload } from "@tabler/icons-react";
import { downloadCsv } from "@/components/Csv";
import { formatDate } from "@/components/Dates";
import { Tag } from "@/components/Tag";
import { reportStatusColor, useWithoutTimetables } from "../api/reports";
import { ReportStates } from "./ReportSection";

const MODES: Record<string, string> = { on_campus: "On Campus", remote: "Remote", full_time: "Full Time", part_time: "Part Time" };

/** Block Groups Without Timetables (docs/behaviour/reports.md, tab 1). */
export function WithoutTimetablesTab() {
  const query = useWithoutTimetables();
  const rows = query.data ?? [];
  const exportCsv = () =>
    downloadCsv(
      `block-groups-without-timetables-${new Date().toISOString().slice(0, 10)}.csv`,
      ["Code", "Name", "Status", "Start Date", "End Date", "Delivery Mode", "Study Pattern"],
      rows.map((r) => [
        r.code,
        r.name,
        r.status,
        formatDate(r.startDate),
        formatDate(r.endDate),
        MODES[r.deliveryMode] ?? r.deliveryMode,
        MODES[r.studyPattern] ?? r.studyPattern,
      ]),
    );
  return (
    <ReportStates query={query} failed={<Notice color="red">Failed to load block groups without timetables. Please try again.</Notice>}>
      {() => (
        <Stack>
          <Group justify="space-between">
            <Text fw={600} data-testid="without-count">
              Found {rows.length} block group(s) without timetables
            </Text>
            <Button variant="light" leftSection={<IconDownload size={16} />} onClick={exportCsv} disabled={!rows.length}>
              Export CSV
            </Button>
          </Group>
          {!rows.length ? (
            <Notice color="green" title="All scheduled">
              Great news! All block groups have timetables scheduled.
            </Notice>
          ) : (
            <Card withBorder p={0}>
              <DataTable
                striped
                minWidth={800}
                rows={rows}
                rowKey={(r) => r.id}
                columns={[
                  { label: "Code", td: { ff: "monospace" }, cell: (r) => r.code },
                  { label: "Status", cell: (r) => <Tag color={reportStatusColor(r.status)}>{r.status}</Tag> },
                  { label: "Name", cell: (r) => r.name },
                  { label: "Start", cell: (r) => formatDate(r.startDate) },
                  { label: "End", cell: (r) => formatDate(r.endDate, "-") },
                  { label: "Delivery Mode", cell: (r) => MODES[r.deliveryMode] ?? r.deliveryMode },
                  { label: "Study Pattern", cell: (r) => MODES[r.studyPattern] ?? r.studyPattern },
                ]}
              />
            </Card>
          )}
        </Stack>
      )}
    </ReportStates>
  );
}
