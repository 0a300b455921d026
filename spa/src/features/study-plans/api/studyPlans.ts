/**
 * Study plans (delivery.md §7): GET/POST /api/study-plans, GET/PUT/DELETE /api/study-plans/{id},
 * POST /api/study-plans/{id}/clone.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface StudyPlan {
  id: string;
  name: string;
  description: string;
  totalNominalHours: number;
  isActive: boolean;
  totalActualHours: number;
  totalSelfDirectedHours: number;
  efficiency: number;
  unitCount: number;
  createdAt: string;
  updatedAt: string;
}

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

/** delivery.md §9: actual / nominal x 100, 0 when there are no nominal hours. */
export function efficiencyOf(actual: number, nominal: number): number {
  return nominal > 0 ? (actual / nominal) * 100 : 0;
}
/** Green at 90 or more, yellow at 70 or more, red below. */
export function efficiencyColor(percent: number): string {
  return percent >= 90 ? "green" : percent >= 70 ? "yellow" : "red";
}

export const fetchStudyPlans = () => apiJson<StudyPlan[]>("/api/study-plans");
export const fetchStudyPlan = (id: string) => apiJson<StudyPlan>(`/api/study-plans/${id}`);
export const studyPlansQueryOptions = () => queryOptions({ queryKey: [...roots.studyPlans, "list"], queryFn: fetchStudyPlans });
export const studyPlanQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.studyPlans, "detail", id], queryFn: () => fetchStudyPlan(id) });
export const useStudyPlans = () => useQuery(studyPlansQueryOptions());
export const useStudyPlan = (id: string) => useQuery(studyPlanQueryOptions(id));

export function useSaveStudyPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ plan, values }: { plan?: StudyPlan | null; values: StudyPlanInput }) =>
      plan
        ? apiJson<StudyPlan>(`/api/study-plans/${plan.id}`, { method: "PUT", json: values, headers: { "If-Match": plan.updatedAt } })
        : apiJson<StudyPlan>("/api/study-plans", { method: "POST", json: values }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.studyPlans }),
  });
}

export function useDeleteStudyPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<void>(`/api/study-plans/${id}`, { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.studyPlans }),
  });
}

export function useCloneStudyPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => apiJson<StudyPlan>(`/api/study-plans/${id}/clone`, { method: "POST", json: { name } }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.studyPlans }),
  });
}
