/** Teachers as several screens list them (GET /api/teachers, showInactive): the teacher, allocation grid and timetable screens. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type Teacher = components["schemas"]["TeacherOut"];

export async function fetchTeachers(showInactive: boolean): Promise<Teacher[]> {
  const { data } = await client.GET("/api/teachers", { params: { query: showInactive ? { showInactive } : {} } });
  return data!;
}
export const teachersQueryOptions = (showInactive: boolean) =>
  queryOptions({ queryKey: [...roots.teachers, "list", { showInactive }], queryFn: () => fetchTeachers(showInactive) });
export const useTeachers = (showInactive: boolean) => useQuery(teachersQueryOptions(showInactive));
