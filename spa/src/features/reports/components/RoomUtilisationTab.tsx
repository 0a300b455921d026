/**
 * Room Utilisation (ADR 0019): per recorded room and per room type, the year's booked hours against the
 * hours available (50 a teaching week), with CSV and Excel exports. Online rooms have no availability.
 */
import { Progress, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { ReportSection, ReportStates } from "./ReportSection";
import { ReportToolbar, useReportYear } from "./ReportToolbar";
import { CodeOverName, DataTable } from "@/components/DataTable";
import { downloadBlob } from "@/components/Csv";
import { hours } from "@/components/Dates";
import { notifyError } from "@/components/Notify";
import { apiFetch, client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";

type Report = components["schemas"]["RoomUtilisationOut"];

async function fetchReport(year: number): Promise<Report> {
  const { data } = await client.GET("/api/reports/room-utilisation", { params: { query: { year: String(year) } } });
  return data!;
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? "-" : `${v}%`);
/** The hours a room (or a type) is available; online rooms have none. */
const available = (h: number | null | undefined) => (h === null || h === undefined ? "-" : `${hours(h)} h`);

export function RoomUtilisationTab() {
  const { current, year, setYear } = useReportYear();
  const query = useQuery({ queryKey: [...roots.reports, "room-utilisation", year], queryFn: () => fetchReport(year) });
  const exportAs = async (format: "csv" | "xlsx") => {
    try {
      const response = await apiFetch(`/api/reports/room-utilisation/export?format=${format}&year=${year}`);
      downloadBlob(await response.blob(), `room-utilisation-${year}.${format}`);
    } catch {
      notifyError("Export failed", "The room utilisation report could not be exported. Please try again.");
    }
  };
  return (
    <Stack>
      <ReportToolbar years={[current - 2, current - 1, current, current + 1]} year={year} onYear={setYear} onExport={exportAs} />
      <ReportStates query={query} failed={<Text c="red">Failed to load the room utilisation report. Please try again.</Text>}>
        {(data) =>
          !data.rooms.length ? (
            <Text c="dimmed">No rooms recorded yet.</Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" data-testid="room-utilisation-basis">
                {data.teachingWeeks} teaching weeks in {data.year} × {data.hoursPerWeek} hours a week (Monday to Friday, 08:00-18:00) available per room.
              </Text>
              <ReportSection title="By room">
                <DataTable
                  striped
                  minWidth={760}
                  data-testid="room-utilisation"
                  rows={data.rooms}
                  rowKey={(r) => r.roomId}
                  columns={[
                    {
                      label: "Room",
                      cell: (r) => <CodeOverName code={r.code} name={r.name} />,
                    },
                    { label: "Type", cell: (r) => r.typeLabel },
                    { label: "Campus", cell: (r) => r.campus ?? "-" },
                    { label: "Capacity", cell: (r) => r.capacity ?? "-" },
                    { label: "Booked", cell: (r) => `${hours(r.bookedHours)} h` },
                    { label: "Available", cell: (r) => available(r.availableHours) },
                    {
                      label: "Utilisation",
                      td: { w: 160 },
                      cell: (r) => (
                        <>
                          <Text size="sm">{pct(r.utilisationPercent)}</Text>
                          {r.utilisationPercent !== null && r.utilisationPercent !== undefined ? (
                            <Progress value={Math.min(100, r.utilisationPercent)} aria-label={`${r.code} utilisation ${r.utilisationPercent}%`} />
                          ) : null}
                        </>
                      ),
                    },
                    { label: "Peak week", cell: (r) => `${hours(r.peakWeekHours)} h` },
                  ]}
                />
              </ReportSection>
              <ReportSection title="By room type">
                <DataTable
                  striped
                  data-testid="room-type-utilisation"
                  rows={data.byType}
                  rowKey={(t) => t.type}
                  columns={[
                    { label: "Type", cell: (t) => t.typeLabel },
                    { label: "Rooms", cell: (t) => t.rooms },
                    { label: "Booked", cell: (t) => `${hours(t.bookedHours)} h` },
                    { label: "Available", cell: (t) => available(t.availableHours) },
                    { label: "Utilisation", cell: (t) => pct(t.utilisationPercent) },
                  ]}
                />
              </ReportSection>
            </>
          )
        }
      </ReportStates>
    </Stack>
  );
}
