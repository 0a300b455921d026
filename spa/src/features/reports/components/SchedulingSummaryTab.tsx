import { Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Notice } from "../../../components/Notice";
import { IconDownload } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";
import { downloadCsv } from "../../../components/Csv";
import { hours } from "../../../components/Dates";
import { Tag } from "../../../components/Tag";
import { reportYears, useSchedulingSummary, utilizationColor } from "../api/reports";
import { StatCard } from "./StatCard";

const pct = (part: number, total: number) => (total ? Math.round((part / total) * 100) : 0);

/** Scheduling Summary (delivery.md §2 Reports, tab 3). */
export function SchedulingSummaryTab() {
  const current = dayjs().year();
  const [year, setYear] = useState(current);
  const { data, isLoading, isError } = useSchedulingSummary(year);
  const exportCsv = () => {
    if (!data) return;
    downloadCsv(
      `scheduling-summary-${year}.csv`,
      ["Metric", "Value"],
      [
        ["Year", year],
        ["Total Sessions", data.totalSessions],
        ["Past Sessions", data.pastSessions],
        ["Upcoming Sessions", data.upcomingSessions],
        ["Scheduled Hours", data.totalScheduledHours],
        ["Active Block Groups", data.activeBlockGroups],
        ["Total Block Groups", data.totalBlockGroups],
        ["Teachers With Schedules", data.teachersWithSchedules],
        ["Total Teachers", data.totalTeachers],
        ["Teacher Utilization %", pct(data.teachersWithSchedules, data.totalTeachers)],
        ["Units In Schedule", data.unitsInSchedule],
        ["Total Units", data.totalUnits],
        ["Unit Coverage %", pct(data.unitsInSchedule, data.totalUnits)],
      ],
    );
  };
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label="Year"
          w={140}
          data={reportYears(current).map(String)}
          value={String(year)}
          onChange={(v) => setYear(Number(v ?? current))}
          allowDeselect={false}
        />
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={exportCsv} disabled={!data}>
          Export CSV
        </Button>
      </Group>
      {isLoading ? (
        <Text>Loading report data...</Text>
      ) : isError || !data ? (
        <Notice color="red">Failed to load scheduling summary data. Please try again.</Notice>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <StatCard
              label="Total Sessions"
              value={data.totalSessions}
              extra={
                <Text size="xs">
                  {data.pastSessions} past, {data.upcomingSessions} upcoming
                </Text>
              }
            />
            <StatCard label="Scheduled Hours" value={hours(data.totalScheduledHours)} />
            <StatCard
              label="Teacher Utilization"
              value={`${data.teachersWithSchedules} / ${data.totalTeachers}`}
              extra={<Tag color={utilizationColor(data.teachersWithSchedules, data.totalTeachers)}>{pct(data.teachersWithSchedules, data.totalTeachers)}%</Tag>}
            />
            <StatCard
              label="Unit Coverage"
              value={`${data.unitsInSchedule} / ${data.totalUnits}`}
              extra={<Tag color={utilizationColor(data.unitsInSchedule, data.totalUnits)}>{pct(data.unitsInSchedule, data.totalUnits)}%</Tag>}
            />
          </SimpleGrid>
          <Card withBorder>
            <Title order={3} size="h5" mb="xs">
              Monthly Breakdown
            </Title>
            <Table.ScrollContainer minWidth={600}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Month</Table.Th>
                    <Table.Th>Sessions</Table.Th>
                    <Table.Th>Teachers</Table.Th>
                    <Table.Th>Hours</Table.Th>
                    <Table.Th>Block Groups</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.monthlyBreakdown.map((m) => (
                    <Table.Tr key={m.month}>
                      <Table.Td>{m.monthName ?? m.month}</Table.Td>
                      <Table.Td>{m.sessions}</Table.Td>
                      <Table.Td>{m.teachers}</Table.Td>
                      <Table.Td>{hours(m.hours)}</Table.Td>
                      <Table.Td>{m.blockGroups}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder>
              <Title order={3} size="h5" mb="xs">
                Most Active Teachers
              </Title>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Teacher</Table.Th>
                    <Table.Th>Units</Table.Th>
                    <Table.Th>Hours</Table.Th>
                    <Table.Th>Sessions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.topTeachers.slice(0, 5).map((t) => (
                    <Table.Tr key={t.teacherName}>
                      <Table.Td>{t.teacherName}</Table.Td>
                      <Table.Td>{t.units}</Table.Td>
                      <Table.Td>{hours(t.hours)}</Table.Td>
                      <Table.Td>{t.sessions}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
            <Card withBorder>
              <Title order={3} size="h5" mb="xs">
                Most Delivered Units
              </Title>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Unit</Table.Th>
                    <Table.Th>Hours</Table.Th>
                    <Table.Th>Sessions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.topUnits.slice(0, 8).map((u) => (
                    <Table.Tr key={u.unitCode}>
                      <Table.Td>
                        <b>{u.unitCode}</b> {u.unitName}
                      </Table.Td>
                      <Table.Td>{hours(u.hours)}</Table.Td>
                      <Table.Td>{u.sessions}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
