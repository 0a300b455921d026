import { Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Notice } from "@/components/Notice";
import { DataTable } from "@/components/DataTable";
import { downloadCsv } from "@/components/Csv";
import { formatDate, hours } from "@/components/Dates";
import { Tag } from "@/components/Tag";
import { reportYears, useWorkload } from "../api/reports";
import { ReportStates, unitColumn } from "./ReportSection";
import { ReportToolbar, useReportYear } from "./ReportToolbar";
import { StatCard } from "./StatCard";

/** Teacher Workload Summary (docs/behaviour/reports.md §2; CSV built in the browser). */
export function WorkloadTab() {
  const { current, year, setYear } = useReportYear();
  const query = useWorkload(year);
  const teachers = [...(query.data?.teachers ?? [])].filter((t) => t.units.length > 0).sort((a, b) => b.totalHours - a.totalHours);
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
      <ReportToolbar years={reportYears(current)} year={year} onYear={setYear} onExport={exportCsv} formats={["csv"]} exportDisabled={!teachers.length} />
      <ReportStates query={query} failed={<Notice color="red">Failed to load teacher workload data. Please try again.</Notice>}>
        {(data) => (
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
                  <DataTable
                    minWidth={700}
                    rows={t.units}
                    rowKey={(u) => u.unitCode}
                    columns={[
                      unitColumn(),
                      { label: "Block Groups", cell: (u) => u.blockGroups.join(", ") },
                      { label: "Actual Hours", cell: (u) => hours(u.totalActualHours) },
                      { label: "S1 / S2", cell: (u) => `${hours(u.semester1Hours)} / ${hours(u.semester2Hours)}` },
                      { label: "Nominal", cell: (u) => u.nominalHours },
                    ]}
                  />
                </Card>
              ))
            )}
          </>
        )}
      </ReportStates>
    </Stack>
  );
}
