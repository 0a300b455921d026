/** Units of competency as several screens list them (GET /api/units): the units, course, teacher and timetable screens. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type Unit = components["schemas"]["UnitOut"];

/** Every unit, or those of a qualification: the study plans assigned to the course's block groups. */
export async function fetchUnits(courseId?: string | null): Promise<Unit[]> {
  const { data } = await client.GET("/api/units", { params: { query: courseId ? { courseId } : {} } });
  return data!;
}
export const unitsQueryOptions = (courseId?: string | null) =>
  queryOptions({ queryKey: courseId ? [...roots.units, "list", { courseId }] : [...roots.units, "list"], queryFn: () => fetchUnits(courseId) });
export const useUnits = (courseId?: string | null) => useQuery(unitsQueryOptions(courseId));
