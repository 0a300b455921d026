/**
 * A block group's plans, hours and schedule (docs/behaviour/generation.md):
 * /api/block-groups/{id}/study-plans, /scheduling-info, /schedule, /hour-reconciliation, /timetabled-units.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import { endAfterStart, isTypedTime, shownTime, toWireTime, typedTime, wireMinutes } from "@/lib/times";

export { asWireTime, END_AFTER_START, endAfterStart, shownTime, TIME_MESSAGE, toWireTime, typedTime, wireMinutes } from "@/lib/times";

export type PlanLinkUnit = components["schemas"]["LinkPlanUnitOut"];
export type PlanLink = components["schemas"]["BlockGroupStudyPlanOut"];
export type SchedulingInfo = components["schemas"]["SchedulingInfoOut"];
export type HourReconciliation = components["schemas"]["HourReconciliationOut"];
export type TimetabledUnit = components["schemas"]["TimetabledUnitOut"];
export type ScheduleResult = components["schemas"]["ScheduleOut"];
export type StudyPlanOption = components["schemas"]["StudyPlanOut"];

export const templateSchema = z
  .object({
    startTime: typedTime,
    endTime: typedTime,
    duration: z.coerce.number<unknown>().positive("Duration must be positive"),
  })
  .refine(...endAfterStart);

/**
 * The server's refusal of two templates of one day whose times overlap (each template is a slot of every
 * scheduled day, ADR 0018): "Template 1 (09:00-12:00) and template 2 (11:00-14:00) overlap", or null.
 * Touching slots (09:00-12:00, 12:00-15:00) are fine. Times are wire times (HH:MM:SS).
 */
export function overlappingTemplates(templates: { startTime: string; endTime: string }[]): string | null {
  const slots = templates
    .map((t, i) => ({ i, start: wireMinutes(t.startTime), end: wireMinutes(t.endTime), t }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  for (let k = 1; k < slots.length; k++) {
    const [x, y] = [slots[k - 1], slots[k]].sort((a, b) => a.i - b.i);
    if (slots[k].start < slots[k - 1].end) {
      const range = (s: (typeof slots)[number]) => `${shownTime(s.t.startTime)}-${shownTime(s.t.endTime)}`;
      return `Template ${x.i + 1} (${range(x)}) and template ${y.i + 1} (${range(y)}) overlap`;
    }
  }
  return null;
}

export const scheduleSchema = z.object({
  sessionTemplates: z
    .array(templateSchema)
    .min(1, "At least one session template is required")
    .superRefine((templates, ctx) => {
      const overlap = overlappingTemplates(templates);
      if (overlap) ctx.addIssue({ code: "custom", message: overlap });
    }),
  startDate: z.string().min(1, "Start date is required"),
  room: z.string().max(50, "Room must be at most 50 characters"),
  // Without a room, the generation chooses a free room of this type for each session.
  roomType: z.enum(["classroom", "computer_lab", "workshop", "kitchen", "online", "other"]).nullable().optional(),
  notes: z.string(),
  startNextUnitInNewWeek: z.boolean(),
});
export type ScheduleFormValues = z.input<typeof scheduleSchema>;
export type ScheduleInput = z.output<typeof scheduleSchema>;
/** docs/behaviour/api.md §3: the first template 09:00-12:00, added ones 13:00-16:00 (3 hours each). */
export const FIRST_TEMPLATE = { startTime: "09:00", endTime: "12:00", duration: 3 };
export const NEXT_TEMPLATE = { startTime: "13:00", endTime: "16:00", duration: 3 };

/**
 * The templates a schedule dialog starts with: one per session of the group's day (`sessionsPerDay`,
 * the coordinator screens work (ADR 0018)): 09:00-12:00, 13:00-16:00, 17:00-20:00, then one-hour evening slots from 20:00 (up to 23:00).
 */
export function defaultTemplates(sessionsPerDay: number | null | undefined) {
  const n = Math.max(1, Math.min(Number(sessionsPerDay) || 1, 6));
  const slots = [FIRST_TEMPLATE, NEXT_TEMPLATE, { startTime: "17:00", endTime: "20:00", duration: 3 }];
  for (let h = 20; h < 23; h++) slots.push({ startTime: `${h}:00`, endTime: `${h + 1}:00`, duration: 1 });
  return slots.slice(0, n).map((t) => ({ ...t }));
}

/** docs/behaviour/conflicts.md §1: hours from start to end, rounded to half hours, when end is after start. */
export function templateHours(start: string, end: string): number | null {
  if (!isTypedTime(start) || !isTypedTime(end)) return null;
  const toMin = (t: string) => {
    const [h, m, sec] = toWireTime(t).split(":").map(Number);
    return h * 60 + m + sec / 60;
  };
  const diff = toMin(end) - toMin(start);
  if (diff <= 0) return null;
  return Math.round((diff / 60) * 2) / 2;
}

const base = (id: string) => [...roots.blockGroups, "detail", id] as const;
const path = (id: string) => ({ params: { path: { block_group_id: id } } });
async function fetchPlanLinks(id: string): Promise<PlanLink[]> {
  const { data } = await client.GET("/api/block-groups/{block_group_id}/study-plans", path(id));
  return data!;
}
async function fetchSchedulingInfo(id: string): Promise<SchedulingInfo> {
  const { data } = await client.GET("/api/block-groups/{block_group_id}/scheduling-info", path(id));
  return data!;
}
async function fetchReconciliation(id: string): Promise<HourReconciliation> {
  const { data } = await client.GET("/api/block-groups/{block_group_id}/hour-reconciliation", path(id));
  return data!;
}
async function fetchTimetabledUnits(id: string): Promise<TimetabledUnit[]> {
  const { data } = await client.GET("/api/block-groups/{block_group_id}/timetabled-units", path(id));
  return data!;
}
async function fetchStudyPlanOptions(): Promise<StudyPlanOption[]> {
  const { data } = await client.GET("/api/study-plans");
  return data!;
}

export const planLinksQueryOptions = (id: string) => queryOptions({ queryKey: [...base(id), "study-plans"], queryFn: () => fetchPlanLinks(id) });
export const schedulingInfoQueryOptions = (id: string) => queryOptions({ queryKey: [...base(id), "scheduling-info"], queryFn: () => fetchSchedulingInfo(id) });
export const reconciliationQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...base(id), "hour-reconciliation"], queryFn: () => fetchReconciliation(id) });
export const timetabledUnitsQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...base(id), "timetabled-units"], queryFn: () => fetchTimetabledUnits(id) });
export const studyPlanOptionsQueryOptions = () => queryOptions({ queryKey: [...roots.studyPlans, "options"], queryFn: fetchStudyPlanOptions });

export const usePlanLinks = (id: string) => useQuery(planLinksQueryOptions(id));
export const useSchedulingInfo = (id: string, enabled: boolean) => useQuery({ ...schedulingInfoQueryOptions(id), enabled });
export const useReconciliation = (id: string) => useQuery(reconciliationQueryOptions(id));
export const useTimetabledUnits = (id: string) => useQuery(timetabledUnitsQueryOptions(id));
export const useStudyPlanOptions = () => useQuery(studyPlanOptionsQueryOptions());

function useInvalidating<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  return useRefreshingMutation([roots.blockGroups, roots.timetables, roots.reports], fn);
}

export const useAssignPlan = (id: string) =>
  useInvalidating(async (studyPlanId: string): Promise<PlanLink> => {
    const { data } = await client.POST("/api/block-groups/{block_group_id}/study-plans", { ...path(id), body: { studyPlanId } });
    return data!;
  });
export const useRemovePlan = (id: string) =>
  useInvalidating(async (studyPlanId: string) => {
    await client.DELETE("/api/block-groups/{block_group_id}/study-plans/{study_plan_id}", {
      params: { path: { block_group_id: id, study_plan_id: studyPlanId } },
    });
  });
export const useGenerateSchedule = (id: string) =>
  useInvalidating(async (values: ScheduleInput): Promise<ScheduleResult> => {
    const { data } = await client.POST("/api/block-groups/{block_group_id}/schedule", { ...path(id), body: values });
    return data!;
  });
export const useClearSchedule = (id: string) =>
  useInvalidating(async () => {
    const { data } = await client.DELETE("/api/block-groups/{block_group_id}/schedule", path(id));
    return data!;
  });
