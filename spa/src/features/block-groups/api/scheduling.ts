/**
 * A block group's plans, hours and schedule (delivery.md §7, decisions.md §3):
 * /api/block-groups/{id}/study-plans, /scheduling-info, /schedule, /hour-reconciliation, /timetabled-units.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";
import type { BlockGroup } from "./blockGroups";

export interface PlanLinkUnit {
  id: string;
  unitId: string;
  sequenceOrder: number;
  yearLevel: number;
  faceToFaceHours: number;
  facilitatedELearningHours: number;
  workIntegratedLearningHours: number;
  inClassAssessmentHours: number;
  unit: { id: string; code: string; name: string; nominalHours: number };
}
export interface PlanLink {
  id: string;
  studyPlanId: string;
  studyPlan: { id: string; name: string; description: string; isActive: boolean; totalNominalHours: number; units: PlanLinkUnit[] };
}
export interface SchedulingInfo {
  blockGroup: BlockGroup;
  studyPlans: { id: string; name: string; units: { id: string; code: string; name: string; facilitatedHours: number; actualHours: number; nominalHours: number; timetabledHours: number }[] }[];
  totalFacilitatedHours: number;
  remainingFacilitatedHours: number;
  existingSessionCount: number;
  estimatedSessions: number;
  estimatedWeeks: number;
}
export interface HourReconciliation {
  totalNominalHours: number;
  unitNominalHours?: number;
  totalActualHours: number;
  totalSelfDirectedHours: number;
  efficiencyRate: number;
  breakdown: Record<string, number>;
}
export interface TimetabledUnit {
  unitId?: string;
  unitCode: string;
  unitName: string;
  nominalHours: number;
  timetabledHours: number;
}
export interface ScheduleResult {
  sessionsCreated: number;
  hoursScheduled: number;
  startDate: string;
  endDate: string;
  unitsScheduled: number;
  holidaysSkipped: { date: string; name: string }[];
  warnings: string[];
}
export interface StudyPlanOption {
  id: string;
  name: string;
  isActive: boolean;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
export const templateSchema = z.object({
  startTime: z.string().regex(TIME, "Invalid time format, use HH:MM:SS"),
  endTime: z.string().regex(TIME, "Invalid time format, use HH:MM:SS"),
  duration: z.coerce.number<unknown>().positive("Duration must be positive"),
});
export const scheduleSchema = z.object({
  sessionTemplates: z.array(templateSchema).min(1, "At least one session template is required"),
  startDate: z.string().min(1, "Start date is required"),
  room: z.string().max(50, "Room must be at most 50 characters"),
  notes: z.string(),
  startNextUnitInNewWeek: z.boolean(),
});
export type ScheduleFormValues = z.input<typeof scheduleSchema>;
export type ScheduleInput = z.output<typeof scheduleSchema>;
export const FIRST_TEMPLATE = { startTime: "09:00:00", endTime: "12:00:00", duration: 3 };
export const NEXT_TEMPLATE = { startTime: "13:00:00", endTime: "16:00:00", duration: 3 };

/** decisions.md §4: hours from start to end, rounded to half hours, when end is after start. */
export function templateHours(start: string, end: string): number | null {
  if (!TIME.test(start) || !TIME.test(end)) return null;
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)) + Number(t.slice(6, 8)) / 60;
  const diff = toMin(end) - toMin(start);
  if (diff <= 0) return null;
  return Math.round((diff / 60) * 2) / 2;
}

const base = (id: string) => [...roots.blockGroups, "detail", id] as const;
export const planLinksQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...base(id), "study-plans"], queryFn: () => apiJson<PlanLink[]>(`/api/block-groups/${id}/study-plans`) });
export const schedulingInfoQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...base(id), "scheduling-info"], queryFn: () => apiJson<SchedulingInfo>(`/api/block-groups/${id}/scheduling-info`) });
export const reconciliationQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...base(id), "hour-reconciliation"], queryFn: () => apiJson<HourReconciliation>(`/api/block-groups/${id}/hour-reconciliation`) });
export const timetabledUnitsQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...base(id), "timetabled-units"], queryFn: () => apiJson<TimetabledUnit[]>(`/api/block-groups/${id}/timetabled-units`) });
export const studyPlanOptionsQueryOptions = () =>
  queryOptions({ queryKey: [...roots.studyPlans, "options"], queryFn: () => apiJson<StudyPlanOption[]>("/api/study-plans") });

export const usePlanLinks = (id: string) => useQuery(planLinksQueryOptions(id));
export const useSchedulingInfo = (id: string, enabled: boolean) => useQuery({ ...schedulingInfoQueryOptions(id), enabled });
export const useReconciliation = (id: string) => useQuery(reconciliationQueryOptions(id));
export const useTimetabledUnits = (id: string) => useQuery(timetabledUnitsQueryOptions(id));
export const useStudyPlanOptions = () => useQuery(studyPlanOptionsQueryOptions());

function useInvalidating<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([roots.blockGroups, roots.timetables, roots.reports].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

export const useAssignPlan = (id: string) =>
  useInvalidating((studyPlanId: string) => apiJson<PlanLink>(`/api/block-groups/${id}/study-plans`, { method: "POST", json: { studyPlanId } }));
export const useRemovePlan = (id: string) =>
  useInvalidating((studyPlanId: string) => apiJson<void>(`/api/block-groups/${id}/study-plans/${studyPlanId}`, { method: "DELETE" }));
export const useGenerateSchedule = (id: string) =>
  useInvalidating((values: ScheduleInput) => apiJson<ScheduleResult>(`/api/block-groups/${id}/schedule`, { method: "POST", json: values }));
export const useClearSchedule = (id: string) => useInvalidating(() => apiJson<unknown>(`/api/block-groups/${id}/schedule`, { method: "DELETE" }));
