/**
 * Linked block groups (docs/behaviour/block-groups.md §5): GET/POST /api/linked-block-groups, PUT/DELETE one, DELETE a member;
 * the block groups that may be linked (GET /api/block-groups).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { fetchAllBlockGroups } from "@/lib/entities/blockGroups";
import { useRefreshingMutation } from "@/lib/refreshingMutation";

export type MemberGroup = components["schemas"]["MemberBlockGroupOut"];
export type LinkedGroup = components["schemas"]["LinkedBlockGroupOut"];
/** A block group that may be linked: the full list row, which has every member field. */
export type LinkableGroup = components["schemas"]["BlockGroupOut"];

export const linkedCreateSchema = z.object({
  name: z.string().trim().min(1, "Name is required"),
  description: z.string(),
  memberBlockGroupIds: z.array(z.string()).min(2, "At least 2 block groups are required to create a linked group"),
});
export const linkedEditSchema = z.object({ name: z.string().trim().min(1, "Name is required"), description: z.string() });
export type LinkedCreateInput = z.infer<typeof linkedCreateSchema>;
export type LinkedEditInput = z.infer<typeof linkedEditSchema>;

/** Same length and at most 2 differing characters (docs/behaviour/block-groups.md §5 "Similar code exists"). */
export function isSimilarCode(a: string, b: string): boolean {
  if (a === b || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && ++diff > 2) return false;
  return true;
}

async function fetchLinkedGroups(): Promise<LinkedGroup[]> {
  const { data } = await client.GET("/api/linked-block-groups");
  return data!;
}

export const linkedGroupsQueryOptions = () => queryOptions({ queryKey: [...roots.linkedGroups, "list"], queryFn: fetchLinkedGroups });
export const linkableGroupsQueryOptions = () => queryOptions({ queryKey: [...roots.blockGroups, "linkable"], queryFn: fetchAllBlockGroups });
export const useLinkedGroups = () => useQuery(linkedGroupsQueryOptions());
export const useLinkableGroups = () => useQuery(linkableGroupsQueryOptions());

function useLinkedMutation<V, R>(fn: (v: V) => Promise<R>) {
  return useRefreshingMutation([roots.linkedGroups, roots.blockGroups], fn);
}
const linkedPath = (id: string) => ({ path: { linked_group_id: id } });
export const useCreateLinked = () =>
  useLinkedMutation(async (v: LinkedCreateInput): Promise<LinkedGroup> => {
    const { data } = await client.POST("/api/linked-block-groups", { body: v });
    return data!;
  });
export const useUpdateLinked = () =>
  useLinkedMutation(async ({ group, values }: { group: LinkedGroup; values: LinkedEditInput }): Promise<LinkedGroup> => {
    const { data } = await client.PUT("/api/linked-block-groups/{linked_group_id}", {
      params: linkedPath(group.id),
      body: values,
      headers: { "If-Match": group.updatedAt },
    });
    return data!;
  });
export const useDeleteLinked = () =>
  useLinkedMutation(async (id: string) => {
    await client.DELETE("/api/linked-block-groups/{linked_group_id}", { params: linkedPath(id) });
  });
export const useRemoveMember = () =>
  useLinkedMutation(async ({ id, blockGroupId }: { id: string; blockGroupId: string }) => {
    const { data } = await client.DELETE("/api/linked-block-groups/{linked_group_id}/members/{block_group_id}", {
      params: { path: { linked_group_id: id, block_group_id: blockGroupId } },
    });
    return data!;
  });
