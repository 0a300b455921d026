/** The list of courses (GET /api/courses) that several screens read: the courses screens and the block group and unit filters. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type Course = components["schemas"]["CourseOut"];

export async function fetchCourses(): Promise<Course[]> {
  const { data } = await client.GET("/api/courses");
  return data!;
}
export const coursesQueryOptions = () => queryOptions({ queryKey: [...roots.courses, "list"], queryFn: fetchCourses });
export const useCourses = () => useQuery(coursesQueryOptions());
