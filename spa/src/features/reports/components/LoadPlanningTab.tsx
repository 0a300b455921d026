import { Stack, Table, Text } from "@mantine/core";
import { ReportSection, REPORT_LOADING } from "./ReportSection";
import { ReportToolbar, useReportYear } from "./ReportToolbar";
import { Fragment } from "react";
import { downloadBlob } from "@/components/Csv";
import { hours } from "@/components/Dates";
import { fetchLoadPlanningExport, useLoadPlanning } from "../api/reports";

/** Load Planning (docs/behaviour/reports.md, tab 4): per term, by course and block group, with totals. */
export function LoadPlanningTab() {
  // One calendar year at a time, next year included: load is planned ahead (docs/behaviour/terms-and-holidays.md).
  const { current, year, setYear } = useReportYear();
  const { data, isLoading } = useLoadPlanning(year, true);
  const exportAs = async (format: "csv" | "xlsx") => {
    try {
      downloadBlob(await fetchLoadPlanningExport(format, year), `load-planning-report.${format}`);
    } catch (error) {
      // docs/behaviour/errors.md §9: a load planning export failure is only logged.
      console.error("Load planning export failed", error);
    }
  };
  const terms = Object.entries(data?.termData ?? {}).sort(([a], [b]) => Number(a) - Number(b));
  return (
    <Stack>
      <ReportToolbar years={[current - 2, current - 1, current, current + 1]} year={year} onYear={setYear} onExport={exportAs} />
      {isLoading ? (
        REPORT_LOADING
      ) : !terms.length ? (
        <Text c="dimmed">No data available for the load planning report.</Text>
      ) : (
        terms.map(([term, t]) => (
          <ReportSection
            key={term}
            data-testid="load-term"
            title={
              <>
                Term {term}
                {data?.year ? ` ${data.year}` : ""}
              </>
            }
          >
            <Table.ScrollContainer minWidth={700}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Course</Table.Th>
                    <Table.Th>Block Group</Table.Th>
                    <Table.Th>Nominal Hours</Table.Th>
                    <Table.Th>Actual Hours</Table.Th>
                    <Table.Th>Student Count</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {Object.entries(t.courses).map(([cid, c]) => (
                    <Fragment key={cid}>
                      {Object.entries(c.blockGroups).map(([bid, b]) => (
                        <Table.Tr key={bid}>
                          <Table.Td>{c.courseCode}</Table.Td>
                          <Table.Td>
                            {b.blockGroupCode} - {b.blockGroupName}
                          </Table.Td>
                          <Table.Td>{hours(b.nominalHours)}</Table.Td>
                          <Table.Td>{hours(b.actualHours)}</Table.Td>
                          <Table.Td>{b.studentCount}</Table.Td>
                        </Table.Tr>
                      ))}
                      <Table.Tr fw={700} bg="var(--mantine-color-default-hover)">
                        <Table.Td colSpan={2}>
                          {c.courseCode} {c.courseName} total
                        </Table.Td>
                        <Table.Td>{hours(c.totals.nominalHours)}</Table.Td>
                        <Table.Td>{hours(c.totals.actualHours)}</Table.Td>
                        <Table.Td>{c.totals.studentCount}</Table.Td>
                      </Table.Tr>
                    </Fragment>
                  ))}
                  <Table.Tr fw={800}>
                    <Table.Td colSpan={2}>Term {term} grand total</Table.Td>
                    <Table.Td>{hours(t.grandTotals.nominalHours)}</Table.Td>
                    <Table.Td>{hours(t.grandTotals.actualHours)}</Table.Td>
                    <Table.Td>{t.grandTotals.studentCount}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </ReportSection>
        ))
      )}
    </Stack>
  );
}
