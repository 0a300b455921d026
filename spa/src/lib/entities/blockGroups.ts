/**
 * Block groups as several screens list them (GET /api/block-groups, with repeated status/course/studyMode
 * filters): the block group, course, study plan, linked group and timetable screens.
 */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type BlockGroup = components["schemas"]["BlockGroupOut"];

/** The list's repeated filters (GET /api/block-groups?status=&course=&studyMode=); all present, maybe empty. */
export type BlockGroupFilters = components["schemas"]["BlockGroupFilters"];

async function fetchBlockGroups(filters: BlockGroupFilters): Promise<BlockGroup[]> {
  const { data } = await client.GET("/api/block-groups", { params: { query: filters } });
  return data!;
}
/** Every block group, unfiltered (the choices of the timetable filters, the groups that may be linked). */
export async function fetchAllBlockGroups(): Promise<BlockGroup[]> {
  const { data } = await client.GET("/api/block-groups");
  return data!;
}

export const blockGroupsQueryOptions = (filters: BlockGroupFilters) =>
  queryOptions({ queryKey: [...roots.blockGroups, "list", filters], queryFn: () => fetchBlockGroups(filters) });
export const useBlockGroups = (filters: BlockGroupFilters, enabled = true) =>
  useQuery({ ...blockGroupsQueryOptions(filters), placeholderData: keepPreviousData, enabled });
