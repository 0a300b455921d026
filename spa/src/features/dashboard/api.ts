/**
 * Dashboard calls (docs/behaviour/reports.md §7): stats (polled every 30 s while the socket is offline), teacher
 * allocations for a date range, this week's teacher workload, upcoming sessions (next 7 days, polled every
 * 60 s while offline). Keys under roots.dashboard, so change events refresh them.
 */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { usePollWhileOffline } from "@/lib/socket";

type Schemas = components["schemas"];
export type DashboardStats = Schemas["DashboardStatsOut"];
export type TeacherAllocations = Schemas["TeacherAllocationsOut"];
export type Allocation = Schemas["AllocationOut"];
export type UnallocatedTeacher = Schemas["UnallocatedTeacherOut"];
export type WorkloadEntry = Schemas["TeacherWorkloadEntryOut"];
export type UpcomingSession = Schemas["UpcomingSessionOut"];

export const DEFAULT_EFFICIENCY = 87;
export const STATS_POLL_MS = 30_000;
export const UPCOMING_POLL_MS = 60_000;

export async function fetchDashboardStats(): Promise<DashboardStats> {
  const { data } = await client.GET("/api/dashboard/stats");
  return data!;
}

export const statsQueryOptions = () => queryOptions({ queryKey: [...roots.dashboard, "stats"], queryFn: fetchDashboardStats });

export function useDashboardStats() {
  const refetchInterval = usePollWhileOffline(STATS_POLL_MS);
  return useQuery({ ...statsQueryOptions(), refetchInterval });
}

export async function fetchTeacherAllocations(start: string, end: string): Promise<TeacherAllocations> {
  const { data } = await client.GET("/api/dashboard/teacher-allocations", { params: { query: { start, end } } });
  return data!;
}

export const allocationsQueryOptions = (start: string, end: string) =>
  queryOptions({
    queryKey: [...roots.dashboard, "teacher-allocations", { start, end }],
    queryFn: () => fetchTeacherAllocations(start, end),
  });

export function useTeacherAllocations(start: string, end: string) {
  return useQuery({ ...allocationsQueryOptions(start, end), placeholderData: keepPreviousData });
}

export async function fetchTeacherWorkload(): Promise<WorkloadEntry[]> {
  const { data } = await client.GET("/api/dashboard/teacher-workload");
  return data!;
}

export const workloadQueryOptions = () => queryOptions({ queryKey: [...roots.dashboard, "teacher-workload"], queryFn: fetchTeacherWorkload });

export function useTeacherWorkload() {
  return useQuery(workloadQueryOptions());
}

export async function fetchUpcomingSessions(): Promise<UpcomingSession[]> {
  const { data } = await client.GET("/api/dashboard/upcoming-sessions");
  return data!;
}

export const upcomingQueryOptions = () => queryOptions({ queryKey: [...roots.dashboard, "upcoming-sessions"], queryFn: fetchUpcomingSessions });

export function useUpcomingSessions() {
  const refetchInterval = usePollWhileOffline(UPCOMING_POLL_MS);
  return useQuery({ ...upcomingQueryOptions(), refetchInterval });
}
