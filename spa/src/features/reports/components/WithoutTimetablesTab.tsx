import { Button, Card, Group, Stack, Table, Text } from "@mantine/core";
import { Notice } from "../../../components/Notice";
import { IconDownload } from "@tabler/icons-react";
import { downloadCsv } from "../../../components/Csv";
import { formatDate } from "../../../components/Dates";
import { Tag } from "../../../components/Tag";
import { reportStatusColor, useWithoutTimetables } from "../api/reports";

const MODES: Record<string, string> = { on_campus: "On Campus", remote: "Remote", full_time: "Full Time", part_time: "Part Time" };

/** Block Groups Without Timetables (delivery.md §2 Reports, tab 1). */
export function WithoutTimetablesTab() {
  const { data, isLoading, isError } = useWithoutTimetables();
  const rows = data ?? [];
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
  if (isLoading) return <Text>Loading report data...</Text>;
  if (isError) return <Notice color="red">Failed to load block groups without timetables. Please try again.</Notice>;
  return (
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
          <Table.ScrollContainer minWidth={800}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Start</Table.Th>
                  <Table.Th>End</Table.Th>
                  <Table.Th>Delivery Mode</Table.Th>
                  <Table.Th>Study Pattern</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td ff="monospace">{r.code}</Table.Td>
                    <Table.Td>
                      <Tag color={reportStatusColor(r.status)}>{r.status}</Tag>
                    </Table.Td>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{formatDate(r.startDate)}</Table.Td>
                    <Table.Td>{formatDate(r.endDate, "-")}</Table.Td>
                    <Table.Td>{MODES[r.deliveryMode] ?? r.deliveryMode}</Table.Td>
                    <Table.Td>{MODES[r.studyPattern] ?? r.studyPattern}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
