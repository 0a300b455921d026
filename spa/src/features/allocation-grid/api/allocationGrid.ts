/**
 * Teacher allocation grid (docs/behaviour/allocation.md §4, §5; admin): the compact form GET /api/teachers/allocation-grid
 * (per teacher, arrays indexed like `weeks`: hours, utilisation, day and evening session counts,
 * ADR 0010), and a cell's sessions from GET /api/teachers/{id}/allocation-week when the cell is opened.
 */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";

export type GridSession = components["schemas"]["GridSessionOut"];
export type GridWeekStats = components["schemas"]["GridWeekStatsOut"];
export type AllocationGrid = components["schemas"]["CompactAllocationGridOut"];
export type GridTeacher = components["schemas"]["CompactGridTeacherOut"];

export const MAX_MARKERS = 6;
export const WARN_ABOVE = 80;
/** Up to 50 yellow, up to 80 green, up to 95 blue, above 95 red (docs/behaviour/allocation.md §4). */
export function utilisationColor(pct: number): string {
  return pct <= 50 ? "yellow" : pct <= 80 ? "green" : pct <= 95 ? "blue" : "red";
}
/** A session starting at or after 17:00, or ending after 17:00, counts as evening. */
export function isEvening(start: string, end: string): boolean {
  return start >= "17:00:00" || end > "17:00:00";
}

async function fetchAllocationGrid(year: number, term: number | null): Promise<AllocationGrid> {
  const { data } = await client.GET("/api/teachers/allocation-grid", { params: { query: { year: String(year), term: term ? String(term) : undefined } } });
  return data!;
}

async function fetchWeekSessions(teacherId: string, weekStart: string): Promise<GridSession[]> {
  const { data } = await client.GET("/api/teachers/{teacher_id}/allocation-week", {
    params: { path: { teacher_id: teacherId }, query: { weekStart } },
  });
  return data!;
}

/** One cell's sessions, loaded when its tooltip opens; refreshed with the grid (same root). */
export const useWeekSessions = (teacherId: string, weekStart: string) =>
  useQuery({ queryKey: [...roots.allocationGrid, "week", teacherId, weekStart], queryFn: () => fetchWeekSessions(teacherId, weekStart) });

export const allocationGridQueryOptions = (year: number, term: number | null) =>
  queryOptions({
    queryKey: [...roots.allocationGrid, year, term],
    queryFn: () => fetchAllocationGrid(year, term),
  });
export const useAllocationGrid = (year: number, term: number | null) =>
  useQuery({ ...allocationGridQueryOptions(year, term), placeholderData: keepPreviousData });
