/**
 * Study plans (docs/behaviour/study-plans.md): GET/POST /api/study-plans, GET/PUT/DELETE /api/study-plans/{id},
 * POST /api/study-plans/{id}/clone.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";

export type StudyPlan = components["schemas"]["StudyPlanOut"];

export const studyPlanSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  description: z.string(),
  totalNominalHours: z.coerce.number<unknown>().int("Total nominal hours must be a whole number").min(1, "Total nominal hours must be at least 1"),
  isActive: z.boolean(),
});
export type StudyPlanFormValues = z.input<typeof studyPlanSchema>;
export type StudyPlanInput = z.output<typeof studyPlanSchema>;
export const STUDY_PLAN_DEFAULTS: StudyPlanFormValues = { name: "", description: "", totalNominalHours: 0, isActive: true };

export const cloneSchema = z.object({ name: z.string().trim().min(1, "Name is required") });

/** docs/behaviour/units-and-courses.md §2: actual / nominal x 100, 0 when there are no nominal hours. */
export function efficiencyOf(actual: number, nominal: number): number {
  return nominal > 0 ? (actual / nominal) * 100 : 0;
}
/** Green at 90 or more, yellow at 70 or more, red below. */
export function efficiencyColor(percent: number): string {
  return percent >= 90 ? "green" : percent >= 70 ? "yellow" : "red";
}

export async function fetchStudyPlans(): Promise<StudyPlan[]> {
  const { data } = await client.GET("/api/study-plans");
  return data!;
}
export async function fetchStudyPlan(id: string): Promise<StudyPlan> {
  const { data } = await client.GET("/api/study-plans/{plan_id}", { params: { path: { plan_id: id } } });
  return data!;
}
export const studyPlansQueryOptions = () => queryOptions({ queryKey: [...roots.studyPlans, "list"], queryFn: fetchStudyPlans });
export const studyPlanQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.studyPlans, "detail", id], queryFn: () => fetchStudyPlan(id) });
export const useStudyPlans = () => useQuery(studyPlansQueryOptions());
export const useStudyPlan = (id: string) => useQuery(studyPlanQueryOptions(id));

export function useSaveStudyPlan() {
  return useRefreshingMutation([roots.studyPlans], async ({ plan, values }: { plan?: StudyPlan | null; values: StudyPlanInput }): Promise<StudyPlan> => {
    const { data } = plan
      ? await client.PUT("/api/study-plans/{plan_id}", { params: { path: { plan_id: plan.id } }, body: values, headers: { "If-Match": plan.updatedAt } })
      : await client.POST("/api/study-plans", { body: values });
    return data!;
  });
}

export function useDeleteStudyPlan() {
  return useRefreshingMutation([roots.studyPlans], async (id: string) => {
    await client.DELETE("/api/study-plans/{plan_id}", { params: { path: { plan_id: id } } });
  });
}

export function useCloneStudyPlan() {
  return useRefreshingMutation([roots.studyPlans], async ({ id, name }: { id: string; name: string }): Promise<StudyPlan> => {
    const { data } = await client.POST("/api/study-plans/{plan_id}/clone", { params: { path: { plan_id: id } }, body: { name } });
    return data!;
  });
}
