/**
 * Reports (docs/behaviour/reports.md): block groups without timetables, teacher workload summary,
 * scheduling summary, load planning and its server export.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch, client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";

export type GroupWithoutTimetable = components["schemas"]["BlockGroupWithoutTimetableOut"];
export type WorkloadUnit = components["schemas"]["WorkloadUnitOut"];
export type WorkloadTeacher = components["schemas"]["WorkloadTeacherOut"];
export type WorkloadSummary = components["schemas"]["WorkloadSummaryOut"];
export type SchedulingSummary = components["schemas"]["SchedulingSummaryOut"];
export type LoadTotals = components["schemas"]["LoadTotalsOut"];
export type LoadPlanning = components["schemas"]["LoadPlanningOut"];

async function fetchWithoutTimetables(): Promise<GroupWithoutTimetable[]> {
  const { data } = await client.GET("/api/reports/block-groups-without-timetables");
  return data!;
}
async function fetchWorkload(year: number): Promise<WorkloadSummary> {
  const { data } = await client.GET("/api/teachers/workload-summary", { params: { query: { year: String(year) } } });
  return data!;
}
async function fetchSchedulingSummary(year: number): Promise<SchedulingSummary> {
  const { data } = await client.GET("/api/reports/scheduling-summary", { params: { query: { year: String(year) } } });
  return data!;
}
async function fetchLoadPlanning(year: number): Promise<LoadPlanning> {
  const { data } = await client.GET("/api/reports/load-planning", { params: { query: { year: String(year) } } });
  return data!;
}

const key = (...parts: unknown[]) => [...roots.reports, ...parts];
export const withoutTimetablesQueryOptions = () => queryOptions({ queryKey: key("block-groups-without-timetables"), queryFn: fetchWithoutTimetables });
/** A fetch whose failure reads as `message` (the Reports screen's "underlying fetch errors"). */
const failingAs =
  <T>(message: string, fetch: () => Promise<T>) =>
  async (): Promise<T> => {
    try {
      return await fetch();
    } catch {
      throw new Error(message);
    }
  };
export const workloadQueryOptions = (year: number) =>
  queryOptions({ queryKey: key("teacher-workload", year), queryFn: failingAs("Failed to fetch teacher workload summary", () => fetchWorkload(year)) });
export const schedulingSummaryQueryOptions = (year: number) =>
  queryOptions({ queryKey: key("scheduling-summary", year), queryFn: failingAs("Failed to fetch scheduling summary", () => fetchSchedulingSummary(year)) });
export const loadPlanningQueryOptions = (year: number) => queryOptions({ queryKey: key("load-planning", year), queryFn: () => fetchLoadPlanning(year) });

export const useWithoutTimetables = () => useQuery(withoutTimetablesQueryOptions());
export const useWorkload = (year: number) => useQuery(workloadQueryOptions(year));
export const useSchedulingSummary = (year: number) => useQuery(schedulingSummaryQueryOptions(year));
export const useLoadPlanning = (year: number, enabled: boolean) => useQuery({ ...loadPlanningQueryOptions(year), enabled });

/** GET /api/reports/load-planning/export?format=csv|xlsx, saved as load-planning-report.{format}. */
export async function fetchLoadPlanningExport(format: "csv" | "xlsx", year: number): Promise<Blob> {
  const response = await apiFetch(`/api/reports/load-planning/export?format=${format}&year=${year}`);
  return response.blob();
}

/** Report utilisation badge: 80%+ green, 60% to under 80% yellow, below 60% red, grey when total is 0. */
export function utilizationColor(part: number, total: number): string {
  if (!total) return "gray";
  const pct = (part / total) * 100;
  return pct >= 80 ? "green" : pct >= 60 ? "yellow" : "red";
}
/** Report status badges: planned blue, active green, completed grey, cancelled red, others grey. */
export function reportStatusColor(status: string): string {
  return ({ planned: "blue", active: "green", completed: "gray", cancelled: "red" } as Record<string, string>)[status] ?? "gray";
}
export const reportYears = (current: number) => Array.from({ length: 5 }, (_, i) => current - i);
