/** The organization's campuses (GET /api/campuses): the choices of block group, room, teacher and closure forms. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type CampusOption = components["schemas"]["CampusOut"];

async function fetchCampusOptions(): Promise<CampusOption[]> {
  const { data } = await client.GET("/api/campuses");
  return data!;
}
export const campusOptionsQueryOptions = () => queryOptions({ queryKey: [...roots.campuses, "list"], queryFn: fetchCampusOptions });
export const useCampusOptions = () => useQuery(campusOptionsQueryOptions());
