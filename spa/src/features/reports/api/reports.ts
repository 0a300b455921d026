/**
 * Reports (delivery.md §7 Reports): block groups without timetables, teacher workload summary,
 * scheduling summary, load planning and its server export.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch, apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface GroupWithoutTimetable {
  id: string;
  code: string;
  name: string;
  status: string;
  startDate: string;
  endDate: string | null;
  deliveryMode: string;
  studyPattern: string;
}
export interface WorkloadUnit {
  unitCode: string;
  unitName: string;
  nominalHours: number;
  semester1Hours: number;
  semester2Hours: number;
  totalActualHours: number;
  blockGroups: string[];
  firstDeliveryDate: string;
  lastDeliveryDate: string;
}
export interface WorkloadTeacher {
  teacherId: string;
  teacherName: string;
  teacherEmployeeId: string;
  isActive: boolean;
  totalHours: number;
  semester1Total: number;
  semester2Total: number;
  units: WorkloadUnit[];
}
export interface WorkloadSummary {
  totalTeachers: number;
  totalUnitsDelivered: number;
  semester1TotalHours: number;
  semester2TotalHours: number;
  totalActualHours: number;
  teachers: WorkloadTeacher[];
}
export interface SchedulingSummary {
  totalSessions: number;
  totalScheduledHours: number;
  upcomingSessions: number;
  pastSessions: number;
  activeBlockGroups: number;
  totalBlockGroups: number;
  teachersWithSchedules: number;
  totalTeachers: number;
  unitsInSchedule: number;
  totalUnits: number;
  monthlyBreakdown: { month: string; monthName?: string; sessions: number; teachers: number; hours: number; blockGroups: number }[];
  topTeachers: { teacherName: string; units: number; hours: number; sessions: number }[];
  topUnits: { unitCode: string; unitName: string; hours: number; sessions: number }[];
}
export interface LoadTotals {
  nominalHours: number;
  actualHours: number;
  studentCount: number;
}
export interface LoadPlanning {
  year?: number;
  termData: Record<
    string,
    {
      courses: Record<string, { courseName: string; courseCode: string; blockGroups: Record<string, LoadTotals & { blockGroupName: string; blockGroupCode: string }>; totals: LoadTotals }>;
      grandTotals: LoadTotals;
    }
  >;
}

const key = (...parts: unknown[]) => [...roots.reports, ...parts];
export const withoutTimetablesQueryOptions = () =>
  queryOptions({ queryKey: key("block-groups-without-timetables"), queryFn: () => apiJson<GroupWithoutTimetable[]>("/api/reports/block-groups-without-timetables") });
export const workloadQueryOptions = (year: number) =>
  queryOptions({
    queryKey: key("teacher-workload", year),
    queryFn: async () => {
      try {
        return await apiJson<WorkloadSummary>(`/api/teachers/workload-summary?year=${year}`);
      } catch {
        throw new Error("Failed to fetch teacher workload summary");
      }
    },
  });
export const schedulingSummaryQueryOptions = (year: number) =>
  queryOptions({
    queryKey: key("scheduling-summary", year),
    queryFn: async () => {
      try {
        return await apiJson<SchedulingSummary>(`/api/reports/scheduling-summary?year=${year}`);
      } catch {
        throw new Error("Failed to fetch scheduling summary");
      }
    },
  });
export const loadPlanningQueryOptions = () => queryOptions({ queryKey: key("load-planning"), queryFn: () => apiJson<LoadPlanning>("/api/reports/load-planning") });

export const useWithoutTimetables = () => useQuery(withoutTimetablesQueryOptions());
export const useWorkload = (year: number) => useQuery(workloadQueryOptions(year));
export const useSchedulingSummary = (year: number) => useQuery(schedulingSummaryQueryOptions(year));
export const useLoadPlanning = (enabled: boolean) => useQuery({ ...loadPlanningQueryOptions(), enabled });

/** GET /api/reports/load-planning/export?format=csv|xlsx, saved as load-planning-report.{format}. */
export async function fetchLoadPlanningExport(format: "csv" | "xlsx"): Promise<Blob> {
  const response = await apiFetch(`/api/reports/load-planning/export?format=${format}`);
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
