/**
 * Linked block groups (delivery.md §7): GET/POST /api/linked-block-groups, PUT/DELETE one, DELETE a member;
 * the block groups that may be linked (GET /api/block-groups).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface MemberGroup {
  id: string;
  code: string;
  name: string;
  deliveryMode: string;
  studyMode: string;
  cohortSize: number;
  startDate: string;
  endDate: string | null;
}
export interface LinkedGroup {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  members: { id: string; blockGroupId: string; blockGroup: MemberGroup }[];
}

export const linkedCreateSchema = z.object({
  name: z.string().trim().min(1, "Name is required"),
  description: z.string(),
  memberBlockGroupIds: z.array(z.string()).min(2, "At least 2 block groups are required to create a linked group"),
});
export const linkedEditSchema = z.object({ name: z.string().trim().min(1, "Name is required"), description: z.string() });
export type LinkedCreateInput = z.infer<typeof linkedCreateSchema>;
export type LinkedEditInput = z.infer<typeof linkedEditSchema>;

/** Same length and at most 2 differing characters (delivery.md §2 "Similar code exists"). */
export function isSimilarCode(a: string, b: string): boolean {
  if (a === b || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && ++diff > 2) return false;
  return true;
}

export const linkedGroupsQueryOptions = () => queryOptions({ queryKey: [...roots.linkedGroups, "list"], queryFn: () => apiJson<LinkedGroup[]>("/api/linked-block-groups") });
export const linkableGroupsQueryOptions = () => queryOptions({ queryKey: [...roots.blockGroups, "linkable"], queryFn: () => apiJson<MemberGroup[]>("/api/block-groups") });
export const useLinkedGroups = () => useQuery(linkedGroupsQueryOptions());
export const useLinkableGroups = () => useQuery(linkableGroupsQueryOptions());

function useLinkedMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => Promise.all([roots.linkedGroups, roots.blockGroups].map((queryKey) => qc.invalidateQueries({ queryKey }))) });
}
export const useCreateLinked = () => useLinkedMutation((v: LinkedCreateInput) => apiJson<LinkedGroup>("/api/linked-block-groups", { method: "POST", json: v }));
export const useUpdateLinked = () =>
  useLinkedMutation(({ group, values }: { group: LinkedGroup; values: LinkedEditInput }) =>
    apiJson<LinkedGroup>(`/api/linked-block-groups/${group.id}`, { method: "PUT", json: values, headers: { "If-Match": group.updatedAt } }),
  );
export const useDeleteLinked = () => useLinkedMutation((id: string) => apiJson<void>(`/api/linked-block-groups/${id}`, { method: "DELETE" }));
export const useRemoveMember = () =>
  useLinkedMutation(({ id, blockGroupId }: { id: string; blockGroupId: string }) => apiJson<unknown>(`/api/linked-block-groups/${id}/members/${blockGroupId}`, { method: "DELETE" }));
