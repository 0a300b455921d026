import { SimpleGrid, Stack, Text } from "@mantine/core";
import { Notice } from "@/components/Notice";
import { DataTable } from "@/components/DataTable";
import { downloadCsv } from "@/components/Csv";
import { hours } from "@/components/Dates";
import { Tag } from "@/components/Tag";
import { reportYears, useSchedulingSummary, utilizationColor } from "../api/reports";
import { ReportSection, ReportStates, unitColumn } from "./ReportSection";
import { ReportToolbar, useReportYear } from "./ReportToolbar";
import { StatCard } from "./StatCard";

const pct = (part: number, total: number) => (total ? Math.round((part / total) * 100) : 0);

/** Scheduling Summary (docs/behaviour/reports.md, tab 3). */
export function SchedulingSummaryTab() {
  const { current, year, setYear } = useReportYear();
  const query = useSchedulingSummary(year);
  const data = query.data;
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
      <ReportToolbar years={reportYears(current)} year={year} onYear={setYear} onExport={exportCsv} formats={["csv"]} exportDisabled={!data} />
      <ReportStates query={query} failed={<Notice color="red">Failed to load scheduling summary data. Please try again.</Notice>}>
        {(data) => (
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
                extra={
                  <Tag color={utilizationColor(data.teachersWithSchedules, data.totalTeachers)}>{pct(data.teachersWithSchedules, data.totalTeachers)}%</Tag>
                }
              />
              <StatCard
                label="Unit Coverage"
                value={`${data.unitsInSchedule} / ${data.totalUnits}`}
                extra={<Tag color={utilizationColor(data.unitsInSchedule, data.totalUnits)}>{pct(data.unitsInSchedule, data.totalUnits)}%</Tag>}
              />
            </SimpleGrid>
            <ReportSection title="Monthly Breakdown">
              <DataTable
                striped
                minWidth={600}
                rows={data.monthlyBreakdown}
                rowKey={(m) => m.month}
                columns={[
                  { label: "Month", cell: (m) => m.monthName ?? m.month },
                  { label: "Sessions", cell: (m) => m.sessions },
                  { label: "Teachers", cell: (m) => m.teachers },
                  { label: "Hours", cell: (m) => hours(m.hours) },
                  { label: "Block Groups", cell: (m) => m.blockGroups },
                ]}
              />
            </ReportSection>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <ReportSection title="Most Active Teachers">
                <DataTable
                  rows={data.topTeachers.slice(0, 5)}
                  rowKey={(t) => t.teacherName}
                  columns={[
                    { label: "Teacher", cell: (t) => t.teacherName },
                    { label: "Units", cell: (t) => t.units },
                    { label: "Hours", cell: (t) => hours(t.hours) },
                    { label: "Sessions", cell: (t) => t.sessions },
                  ]}
                />
              </ReportSection>
              <ReportSection title="Most Delivered Units">
                <DataTable
                  rows={data.topUnits.slice(0, 8)}
                  rowKey={(u) => u.unitCode}
                  columns={[unitColumn(), { label: "Hours", cell: (u) => hours(u.hours) }, { label: "Sessions", cell: (u) => u.sessions }]}
                />
              </ReportSection>
            </SimpleGrid>
          </>
        )}
      </ReportStates>
    </Stack>
  );
}
