/**
 * Units of competency (docs/behaviour/units-and-courses.md §2): GET/POST /api/units, GET/PUT/DELETE /api/units/{id}.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import type { Unit } from "@/lib/entities/units";

export { fetchUnits, type Unit, unitsQueryOptions, useUnits } from "@/lib/entities/units";

export const unitSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(20, "Code must be at most 20 characters"),
  name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  description: z.string(),
  nominalHours: z.coerce
    .number<unknown>({ error: "Nominal hours must be at least 1" })
    .int("Nominal hours must be a whole number")
    .min(1, "Nominal hours must be at least 1"),
  isCore: z.boolean(),
  prerequisites: z.string(),
});
export type UnitFormValues = z.input<typeof unitSchema>;
export type UnitInput = z.output<typeof unitSchema>;
export const UNIT_DEFAULTS: UnitFormValues = { code: "", name: "", description: "", nominalHours: 1, isCore: true, prerequisites: "" };

export async function fetchUnit(id: string): Promise<Unit> {
  const { data } = await client.GET("/api/units/{unit_id}", { params: { path: { unit_id: id } } });
  return data!;
}

export const unitQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.units, "detail", id], queryFn: () => fetchUnit(id) });
export const useUnit = (id: string) => useQuery(unitQueryOptions(id));

export function useSaveUnit() {
  return useRefreshingMutation([roots.units], async ({ unit, values }: { unit?: Unit | null; values: UnitInput }): Promise<Unit> => {
    const { data } = unit
      ? await client.PUT("/api/units/{unit_id}", { params: { path: { unit_id: unit.id } }, body: values, headers: { "If-Match": unit.updatedAt } })
      : await client.POST("/api/units", { body: values });
    return data!;
  });
}

export function useDeleteUnit() {
  return useRefreshingMutation([roots.units], async (id: string) => {
    await client.DELETE("/api/units/{unit_id}", { params: { path: { unit_id: id } } });
  });
}
