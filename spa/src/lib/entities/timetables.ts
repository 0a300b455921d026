/**
 * Timetable sessions as several screens list them (GET /api/timetables, never fresh: staleTime 0): the
 * timetables screen, a room's week and the re-plan review's other sessions of the affected weeks.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type Session = components["schemas"]["SessionOut"];
/** The screen's filters (client state), sent as the list's and the conflicts' query. */
export interface TimetableFilters {
  blockGroupId: string | null;
  teacherId: string | null;
  /** A recorded room's sessions. */
  roomId?: string | null;
  hidePast: boolean;
}

async function fetchTimetables(f: TimetableFilters): Promise<Session[]> {
  const query = {
    blockGroupId: f.blockGroupId || undefined,
    teacherId: f.teacherId || undefined,
    roomId: f.roomId || undefined,
    hidePast: f.hidePast || undefined,
  };
  const { data } = await client.GET("/api/timetables", { params: { query } });
  return data!;
}

export const timetablesQueryOptions = (f: TimetableFilters) =>
  queryOptions({ queryKey: [...roots.timetables, "list", f], queryFn: () => fetchTimetables(f), staleTime: 0, gcTime: 0 });
export const useTimetables = (f: TimetableFilters) => useQuery(timetablesQueryOptions(f));
