/**
 * Study plan units (docs/behaviour/study-plans.md): GET/POST /api/study-plans/{id}/units, PUT /api/study-plan-units/{id},
 * DELETE /api/study-plans/{id}/units/{studyPlanUnitId}, GET /api/study-plans/{id}/cluster-names; and the
 * unit choices (GET /api/units).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";

export const ACTUAL_FIELDS = [
  ["faceToFaceHours", "Face to Face", "Face to face hours"],
  ["facilitatedELearningHours", "Facilitated e-Learning", "Facilitated e-learning hours"],
  ["workIntegratedLearningHours", "Work Integrated Learning", "Work integrated learning hours"],
  ["inClassAssessmentHours", "In-Class Assessment", "In-class assessment hours"],
] as const;
export const BALANCE_FIELDS = [
  ["structuredLearningHours", "Structured Learning", "Structured learning hours"],
  ["workIntegratedLearningBalanceHours", "WIL Balance", "Work integrated learning balance hours"],
  ["cumulativeAssessmentHours", "Cumulative Assessment", "Cumulative assessment hours"],
] as const;
export type HourField = (typeof ACTUAL_FIELDS)[number][0] | (typeof BALANCE_FIELDS)[number][0];

export type UnitOption = components["schemas"]["UnitOut"];
export type PlanUnit = components["schemas"]["StudyPlanUnitOut"];

/** docs/behaviour/hours.md §2: each hour a number of at least 0; an empty input becomes 0. */
const hour = (label: string) =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? 0 : Number(v)),
    z.number({ error: `${label} must be a number` }).min(0, `${label} must be non-negative`),
  );

export const planUnitSchema = z.object({
  unitId: z.string().min(1, "Please select a unit"),
  yearLevel: z.coerce.number<unknown>().int().min(1, "Year level must be at least 1").max(4, "Year level cannot exceed 4"),
  faceToFaceHours: hour("Face to face hours"),
  facilitatedELearningHours: hour("Facilitated e-learning hours"),
  workIntegratedLearningHours: hour("Work integrated learning hours"),
  inClassAssessmentHours: hour("In-class assessment hours"),
  structuredLearningHours: hour("Structured learning hours"),
  workIntegratedLearningBalanceHours: hour("Work integrated learning balance hours"),
  cumulativeAssessmentHours: hour("Cumulative assessment hours"),
  isCluster: z.boolean(),
  clusterGroup: z.string().max(50, "Cluster group must be at most 50 characters"),
  insertPosition: z.string(),
});
export type PlanUnitFormValues = z.input<typeof planUnitSchema>;
export type PlanUnitInput = z.output<typeof planUnitSchema>;

export const sumActual = (u: Partial<Record<HourField, unknown>>) => ACTUAL_FIELDS.reduce((s, [k]) => s + (Number(u[k]) || 0), 0);
export const sumBalance = (u: Partial<Record<HourField, unknown>>) => BALANCE_FIELDS.reduce((s, [k]) => s + (Number(u[k]) || 0), 0);
export const TOLERANCE = 0.01;

async function fetchUnitOptions(): Promise<UnitOption[]> {
  const { data } = await client.GET("/api/units");
  return data!;
}
async function fetchPlanUnits(planId: string): Promise<PlanUnit[]> {
  const { data } = await client.GET("/api/study-plans/{plan_id}/units", { params: { path: { plan_id: planId } } });
  return data!;
}
async function fetchClusterNames(planId: string): Promise<string[]> {
  const { data } = await client.GET("/api/study-plans/{plan_id}/cluster-names", { params: { path: { plan_id: planId } } });
  return data!;
}

export const unitOptionsQueryOptions = () => queryOptions({ queryKey: [...roots.units, "options"], queryFn: fetchUnitOptions });
export const planUnitsQueryOptions = (planId: string) =>
  queryOptions({ queryKey: [...roots.studyPlans, "units", planId], queryFn: () => fetchPlanUnits(planId) });
export const clusterNamesQueryOptions = (planId: string) =>
  queryOptions({ queryKey: [...roots.studyPlans, "cluster-names", planId], queryFn: () => fetchClusterNames(planId) });

export const useUnitOptions = () => useQuery(unitOptionsQueryOptions());
export const usePlanUnits = (planId: string, enabled = true) => useQuery({ ...planUnitsQueryOptions(planId), enabled });
export const useClusterNames = (planId: string, enabled = true) => useQuery({ ...clusterNamesQueryOptions(planId), enabled });

function body(planId: string, values: PlanUnitInput) {
  const { insertPosition, ...rest } = values;
  return {
    ...rest,
    studyPlanId: planId,
    clusterGroup: values.isCluster ? values.clusterGroup.trim() : "",
    insertPosition: insertPosition && insertPosition !== "end" ? Number(insertPosition) : null,
  };
}

export function useSavePlanUnit(planId: string) {
  return useRefreshingMutation([roots.studyPlans], async ({ planUnit, values }: { planUnit?: PlanUnit | null; values: PlanUnitInput }): Promise<PlanUnit> => {
    if (planUnit) {
      const { insertPosition: _ignored, studyPlanId: _plan, ...update } = body(planId, values);
      void _ignored;
      void _plan;
      const { data } = await client.PUT("/api/study-plan-units/{plan_unit_id}", {
        params: { path: { plan_unit_id: planUnit.id } },
        body: { ...update, sequenceOrder: planUnit.sequenceOrder },
        headers: planUnit.updatedAt ? { "If-Match": planUnit.updatedAt } : undefined,
      });
      return data!;
    }
    const { data } = await client.POST("/api/study-plans/{plan_id}/units", { params: { path: { plan_id: planId } }, body: body(planId, values) });
    return data!;
  });
}

export function useRemovePlanUnit(planId: string) {
  return useRefreshingMutation([roots.studyPlans], async (planUnitId: string) => {
    await client.DELETE("/api/study-plans/{plan_id}/units/{plan_unit_id}", { params: { path: { plan_id: planId, plan_unit_id: planUnitId } } });
  });
}
