/**
 * Courses (docs/behaviour/units-and-courses.md §1): GET/POST /api/courses, GET/PUT/DELETE /api/courses/{id}.
 * Fetchers, query option factories, hooks and the form's zod schema.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import type { Course } from "@/lib/entities/courses";

export { type Course, coursesQueryOptions, fetchCourses, useCourses } from "@/lib/entities/courses";

export type CourseLevel = components["schemas"]["CourseIn"]["level"];

/** Keyed by any string: CourseOut declares `level` as a plain string. */
export const LEVEL_LABELS: Record<string, string> = {
  certificate_iii: "Certificate III",
  certificate_iv: "Certificate IV",
  diploma: "Diploma",
} satisfies Record<CourseLevel, string>;

export const courseSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(20, "Code must be at most 20 characters"),
  name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  level: z.enum(["certificate_iii", "certificate_iv", "diploma"]),
  description: z.string(),
  isActive: z.boolean(),
});
export type CourseInput = z.infer<typeof courseSchema>;
export const COURSE_DEFAULTS: CourseInput = { code: "", name: "", level: "certificate_iii", description: "", isActive: true };

export async function fetchCourse(id: string): Promise<Course> {
  const { data } = await client.GET("/api/courses/{course_id}", { params: { path: { course_id: id } } });
  return data!;
}

export const courseQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.courses, "detail", id], queryFn: () => fetchCourse(id) });

export const useCourse = (id: string) => useQuery(courseQueryOptions(id));

export function useSaveCourse() {
  return useRefreshingMutation([roots.courses], async ({ course, values }: { course?: Course | null; values: CourseInput }): Promise<Course> => {
    const { data } = course
      ? await client.PUT("/api/courses/{course_id}", { params: { path: { course_id: course.id } }, body: values, headers: { "If-Match": course.updatedAt } })
      : await client.POST("/api/courses", { body: values });
    return data!;
  });
}

export function useDeleteCourse() {
  return useRefreshingMutation([roots.courses], async (id: string) => {
    await client.DELETE("/api/courses/{course_id}", { params: { path: { course_id: id } } });
  });
}
