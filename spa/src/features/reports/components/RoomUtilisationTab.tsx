/**
 * Room Utilisation (issue 19): per recorded room and per room type, the year's booked hours against the
 * hours available (50 a teaching week), with CSV and Excel exports. Online rooms have no availability.
 */
import { Card, Progress, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import { ReportToolbar } from "./ReportToolbar";
import { useState } from "react";
import { downloadBlob } from "../../../components/Csv";
import { hours } from "../../../components/Dates";
import { notifyError } from "../../../components/Notify";
import { apiFetch, client } from "../../../lib/api";
import type { components } from "../../../lib/api-schema";
import { roots } from "../../../lib/queryKeys";

type Report = components["schemas"]["RoomUtilisationOut"];

async function fetchReport(year: number): Promise<Report> {
  const { data } = await client.GET("/api/reports/room-utilisation", { params: { query: { year: String(year) } } });
  return data!;
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? "-" : `${v}%`);

export function RoomUtilisationTab() {
  const current = dayjs().year();
  const [year, setYear] = useState(current);
  const { data, isLoading, isError } = useQuery({ queryKey: [...roots.reports, "room-utilisation", year], queryFn: () => fetchReport(year) });
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
      {isLoading ? (
        <Text>Loading report data...</Text>
      ) : isError || !data ? (
        <Text c="red">Failed to load the room utilisation report. Please try again.</Text>
      ) : !data.rooms.length ? (
        <Text c="dimmed">No rooms recorded yet.</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" data-testid="room-utilisation-basis">
            {data.teachingWeeks} teaching weeks in {data.year} × {data.hoursPerWeek} hours a week (Monday to Friday, 08:00-18:00) available per room.
          </Text>
          <Card withBorder>
            <Title order={3} size="h5" mb="xs">
              By room
            </Title>
            <Table.ScrollContainer minWidth={760}>
              <Table striped data-testid="room-utilisation">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Room</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Campus</Table.Th>
                    <Table.Th>Capacity</Table.Th>
                    <Table.Th>Booked</Table.Th>
                    <Table.Th>Available</Table.Th>
                    <Table.Th>Utilisation</Table.Th>
                    <Table.Th>Peak week</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rooms.map((r) => (
                    <Table.Tr key={r.roomId}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {r.code}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {r.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>{r.typeLabel}</Table.Td>
                      <Table.Td>{r.campus ?? "-"}</Table.Td>
                      <Table.Td>{r.capacity ?? "-"}</Table.Td>
                      <Table.Td>{hours(r.bookedHours)} h</Table.Td>
                      <Table.Td>{r.availableHours === null || r.availableHours === undefined ? "-" : `${hours(r.availableHours)} h`}</Table.Td>
                      <Table.Td w={160}>
                        <Text size="sm">{pct(r.utilisationPercent)}</Text>
                        {r.utilisationPercent !== null && r.utilisationPercent !== undefined ? (
                          <Progress value={Math.min(100, r.utilisationPercent)} aria-label={`${r.code} utilisation ${r.utilisationPercent}%`} />
                        ) : null}
                      </Table.Td>
                      <Table.Td>{hours(r.peakWeekHours)} h</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <Card withBorder>
            <Title order={3} size="h5" mb="xs">
              By room type
            </Title>
            <Table striped data-testid="room-type-utilisation">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Rooms</Table.Th>
                  <Table.Th>Booked</Table.Th>
                  <Table.Th>Available</Table.Th>
                  <Table.Th>Utilisation</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.byType.map((t) => (
                  <Table.Tr key={t.type}>
                    <Table.Td>{t.typeLabel}</Table.Td>
                    <Table.Td>{t.rooms}</Table.Td>
                    <Table.Td>{hours(t.bookedHours)} h</Table.Td>
                    <Table.Td>{t.availableHours === null || t.availableHours === undefined ? "-" : `${hours(t.availableHours)} h`}</Table.Td>
                    <Table.Td>{pct(t.utilisationPercent)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </>
      )}
    </Stack>
  );
}
