import { Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Notice } from "../../../components/Notice";
import { IconDownload } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";
import { downloadCsv } from "../../../components/Csv";
import { formatDate, hours } from "../../../components/Dates";
import { Tag } from "../../../components/Tag";
import { reportYears, useWorkload } from "../api/reports";
import { StatCard } from "./StatCard";

/** Teacher Workload Summary (delivery.md §2 Reports, tab 2; CSV built in the browser, §7). */
export function WorkloadTab() {
  const current = dayjs().year();
  const [year, setYear] = useState(current);
  const { data, isLoading, isError } = useWorkload(year);
  const teachers = [...(data?.teachers ?? [])].filter((t) => t.units.length > 0).sort((a, b) => b.totalHours - a.totalHours);
  const exportCsv = () =>
    downloadCsv(
      `teacher-workload-${year}.csv`,
      [
        "Teacher",
        "Employee ID",
        "Active",
        "Unit Code",
        "Unit Name",
        "Nominal Hours",
        "Semester 1 Hours",
        "Semester 2 Hours",
        "Total Actual Hours",
        "Block Groups",
        "First Delivery",
        "Last Delivery",
      ],
      teachers.flatMap((t) =>
        t.units.map((u) => [
          t.teacherName,
          t.teacherEmployeeId,
          t.isActive ? "Yes" : "No",
          u.unitCode,
          u.unitName,
          u.nominalHours,
          u.semester1Hours,
          u.semester2Hours,
          u.totalActualHours,
          u.blockGroups.join("; "),
          formatDate(u.firstDeliveryDate),
          formatDate(u.lastDeliveryDate),
        ]),
      ),
    );
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
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={exportCsv} disabled={!teachers.length}>
          Export CSV
        </Button>
      </Group>
      {isLoading ? (
        <Text>Loading report data...</Text>
      ) : isError || !data ? (
        <Notice color="red">Failed to load teacher workload data. Please try again.</Notice>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <StatCard label="Active Teachers" value={data.totalTeachers} />
            <StatCard label="Units Delivered" value={data.totalUnitsDelivered} />
            <StatCard label="Semester 1 Hours" value={hours(data.semester1TotalHours)} />
            <StatCard label="Semester 2 Hours" value={hours(data.semester2TotalHours)} />
            <StatCard label="Total Hours" value={hours(data.totalActualHours)} />
          </SimpleGrid>
          {!teachers.length ? (
            <Notice color="gray" title="No Teaching Data Found">
              No teaching sessions were found for the year {year}. Select a different year or check timetable data.
            </Notice>
          ) : (
            teachers.map((t, i) => (
              <Card withBorder key={t.teacherId} data-testid="workload-teacher">
                <Group justify="space-between" mb="xs">
                  <Group gap="xs">
                    <Tag color="indigo" variant="filled">
                      #{i + 1}
                    </Tag>
                    <Title order={3} size="h5">
                      {t.teacherName}
                    </Title>
                    {!t.isActive ? <Tag color="gray">Inactive</Tag> : null}
                    <Text size="sm" c="dimmed">
                      {t.teacherEmployeeId}
                    </Text>
                  </Group>
                  <Group gap="xs">
                    <Tag color="blue">Total {hours(t.totalHours)} h</Tag>
                    <Tag color="teal">S1 {hours(t.semester1Total)} h</Tag>
                    <Tag color="grape">S2 {hours(t.semester2Total)} h</Tag>
                  </Group>
                </Group>
                <Table.ScrollContainer minWidth={700}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Unit</Table.Th>
                        <Table.Th>Block Groups</Table.Th>
                        <Table.Th>Actual Hours</Table.Th>
                        <Table.Th>S1 / S2</Table.Th>
                        <Table.Th>Nominal</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {t.units.map((u) => (
                        <Table.Tr key={u.unitCode}>
                          <Table.Td>
                            <b>{u.unitCode}</b> {u.unitName}
                          </Table.Td>
                          <Table.Td>{u.blockGroups.join(", ")}</Table.Td>
                          <Table.Td>{hours(u.totalActualHours)}</Table.Td>
                          <Table.Td>
                            {hours(u.semester1Hours)} / {hours(u.semester2Hours)}
                          </Table.Td>
                          <Table.Td>{u.nominalHours}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Card>
            ))
          )}
        </>
      )}
    </Stack>
  );
}
