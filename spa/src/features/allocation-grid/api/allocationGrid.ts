/** Teacher allocation grid (delivery.md §3, §9): GET /api/teachers/allocation-gantt?year=&term= (admin). */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface GridSession {
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  unitCode: string;
  blockGroupCode: string;
  actualHours: number;
  room: string;
  status: string;
}
export interface GridWeekStats {
  weekNumber: number;
  weekStart: string;
  totalHours: number;
  daytimeHours: number;
  eveningHours: number;
  utilizationPercentage: number;
  isOverCapacity: boolean;
  sessions: GridSession[];
}
export interface AllocationGrid {
  year: number;
  term: number | null;
  summary: { totalTeachers: number; activeTeachers: number; overCapacityTeachers: number; underUtilizedTeachers: number; averageUtilization: number };
  weeks: { weekNumber: number; weekStart: string; weekEnd: string }[];
  teachers: { teacherId: string; teacherName: string; maxWeeklyHours: number; isActive: boolean; yearlyStats: { utilizationPercentage: number; totalHours?: number }; weeklyStats: GridWeekStats[] }[];
}

export const MAX_MARKERS = 6;
export const WARN_ABOVE = 80;
/** Up to 50 yellow, up to 80 green, up to 95 blue, above 95 red (delivery.md §9). */
export function utilisationColor(pct: number): string {
  return pct <= 50 ? "yellow" : pct <= 80 ? "green" : pct <= 95 ? "blue" : "red";
}
/** A session starting at or after 17:00, or ending after 17:00, counts as evening. */
export function isEvening(start: string, end: string): boolean {
  return start >= "17:00:00" || end > "17:00:00";
}

export const allocationGridQueryOptions = (year: number, term: number | null) =>
  queryOptions({
    queryKey: [...roots.allocationGrid, year, term],
    queryFn: () => apiJson<AllocationGrid>(`/api/teachers/allocation-gantt?year=${year}${term ? `&term=${term}` : ""}`),
  });
export const useAllocationGrid = (year: number, term: number | null) => useQuery({ ...allocationGridQueryOptions(year, term), placeholderData: keepPreviousData });
