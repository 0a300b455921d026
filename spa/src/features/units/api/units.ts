/**
 * Units of competency (delivery.md §7): GET/POST /api/units, GET/PUT/DELETE /api/units/{id}.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface Unit {
  id: string;
  code: string;
  name: string;
  description: string;
  nominalHours: number;
  isCore: boolean;
  prerequisites: string;
  createdAt: string;
  updatedAt: string;
}

export const unitSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(20, "Code must be at most 20 characters"),
  name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  description: z.string(),
  nominalHours: z.coerce.number<unknown>({ error: "Nominal hours must be at least 1" }).int("Nominal hours must be a whole number").min(1, "Nominal hours must be at least 1"),
  isCore: z.boolean(),
  prerequisites: z.string(),
});
export type UnitFormValues = z.input<typeof unitSchema>;
export type UnitInput = z.output<typeof unitSchema>;
export const UNIT_DEFAULTS: UnitFormValues = { code: "", name: "", description: "", nominalHours: 1, isCore: true, prerequisites: "" };

export const fetchUnits = () => apiJson<Unit[]>("/api/units");
export const fetchUnit = (id: string) => apiJson<Unit>(`/api/units/${id}`);

export const unitsQueryOptions = () => queryOptions({ queryKey: [...roots.units, "list"], queryFn: fetchUnits });
export const unitQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.units, "detail", id], queryFn: () => fetchUnit(id) });
export const useUnits = () => useQuery(unitsQueryOptions());
export const useUnit = (id: string) => useQuery(unitQueryOptions(id));

export function useSaveUnit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ unit, values }: { unit?: Unit | null; values: UnitInput }) =>
      unit
        ? apiJson<Unit>(`/api/units/${unit.id}`, { method: "PUT", json: values, headers: { "If-Match": unit.updatedAt } })
        : apiJson<Unit>("/api/units", { method: "POST", json: values }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.units }),
  });
}

export function useDeleteUnit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<void>(`/api/units/${id}`, { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.units }),
  });
}
