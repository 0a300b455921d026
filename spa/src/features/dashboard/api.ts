/**
 * Dashboard calls (platform.md §3, §7): stats (polled every 30 s while the socket is offline), teacher
 * allocations for a date range, this week's teacher workload, upcoming sessions (next 7 days, polled every
 * 60 s while offline). Keys under roots.dashboard, so change events refresh them.
 */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../lib/api";
import { roots } from "../../lib/queryKeys";
import { usePollWhileOffline } from "../../lib/socket";

export const DEFAULT_EFFICIENCY = 87;
export const STATS_POLL_MS = 30_000;
export const UPCOMING_POLL_MS = 60_000;

const num = z.coerce.number();

export const statsSchema = z
  .object({
    activeCourses: num.default(0),
    activeTeachers: num.default(0),
    blockGroups: num.default(0),
    weeklyHours: num.default(0),
    efficiency: num.nullish(),
  })
  .loose();
export type DashboardStats = z.infer<typeof statsSchema>;

export const statsQueryOptions = () =>
  queryOptions({
    queryKey: [...roots.dashboard, "stats"],
    queryFn: async () => statsSchema.parse(await apiJson("/api/dashboard/stats")),
  });

export function useDashboardStats() {
  const refetchInterval = usePollWhileOffline(STATS_POLL_MS);
  return useQuery({ ...statsQueryOptions(), refetchInterval });
}

export const allocationSchema = z
  .object({
    id: z.string(),
    date: z.string(),
    time: z.string().default(""),
    teacherName: z.string().default(""),
    unitCode: z.string().default(""),
    unitName: z.string().default(""),
    blockGroupCode: z.string().default(""),
    room: z.string().nullish(),
    status: z.string().default("scheduled"),
  })
  .loose();
export type Allocation = z.infer<typeof allocationSchema>;

export const unallocatedSchema = z
  .object({ id: z.string(), name: z.string(), initials: z.string().default(""), maxWeeklyHours: num.nullish() })
  .loose();
export type UnallocatedTeacher = z.infer<typeof unallocatedSchema>;

export const allocationsSchema = z.object({
  allocations: z.array(allocationSchema).default([]),
  unallocatedTeachers: z.array(unallocatedSchema).default([]),
});

export const allocationsQueryOptions = (start: string, end: string) =>
  queryOptions({
    queryKey: [...roots.dashboard, "teacher-allocations", { start, end }],
    queryFn: async () =>
      allocationsSchema.parse(
        await apiJson(`/api/dashboard/teacher-allocations?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`),
      ),
  });

export function useTeacherAllocations(start: string, end: string) {
  return useQuery({ ...allocationsQueryOptions(start, end), placeholderData: keepPreviousData });
}

export const workloadSchema = z.array(
  z
    .object({
      id: z.string(),
      name: z.string(),
      initials: z.string().default(""),
      hours: num.default(0),
      maxHours: num.default(0),
      percentage: num.default(0),
    })
    .loose(),
);
export type WorkloadEntry = z.infer<typeof workloadSchema>[number];

export const workloadQueryOptions = () =>
  queryOptions({
    queryKey: [...roots.dashboard, "teacher-workload"],
    queryFn: async () => workloadSchema.parse(await apiJson("/api/dashboard/teacher-workload")),
  });

export function useTeacherWorkload() {
  return useQuery(workloadQueryOptions());
}

const codeName = z.object({ code: z.string().default(""), name: z.string().default("") }).loose();

export const upcomingSchema = z.array(
  z
    .object({
      id: z.string(),
      dayOfWeek: num,
      actualDate: z.string(),
      startTime: z.string(),
      endTime: z.string(),
      unit: codeName.nullish(),
      blockGroup: codeName.nullish(),
      teacher: z.string().nullish(),
      room: z.string().nullish(),
      status: z.string().default("scheduled"),
    })
    .loose(),
);
export type UpcomingSession = z.infer<typeof upcomingSchema>[number];

export const upcomingQueryOptions = () =>
  queryOptions({
    queryKey: [...roots.dashboard, "upcoming-sessions"],
    queryFn: async () => upcomingSchema.parse(await apiJson("/api/dashboard/upcoming-sessions")),
  });

export function useUpcomingSessions() {
  const refetchInterval = usePollWhileOffline(UPCOMING_POLL_MS);
  return useQuery({ ...upcomingQueryOptions(), refetchInterval });
}
