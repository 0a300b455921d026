/**
 * Courses (delivery.md §7): GET/POST /api/courses, GET/PUT/DELETE /api/courses/{id}.
 * Fetchers, query option factories, hooks and the form's zod schema.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export type CourseLevel = "certificate_iii" | "certificate_iv" | "diploma";

export interface Course {
  id: string;
  code: string;
  name: string;
  level: CourseLevel;
  description: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export const LEVEL_LABELS: Record<CourseLevel, string> = {
  certificate_iii: "Certificate III",
  certificate_iv: "Certificate IV",
  diploma: "Diploma",
};

export const courseSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(20, "Code must be at most 20 characters"),
  name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  level: z.enum(["certificate_iii", "certificate_iv", "diploma"]),
  description: z.string(),
  isActive: z.boolean(),
});
export type CourseInput = z.infer<typeof courseSchema>;
export const COURSE_DEFAULTS: CourseInput = { code: "", name: "", level: "certificate_iii", description: "", isActive: true };

export const fetchCourses = () => apiJson<Course[]>("/api/courses");
export const fetchCourse = (id: string) => apiJson<Course>(`/api/courses/${id}`);

export const coursesQueryOptions = () => queryOptions({ queryKey: [...roots.courses, "list"], queryFn: fetchCourses });
export const courseQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.courses, "detail", id], queryFn: () => fetchCourse(id) });

export const useCourses = () => useQuery(coursesQueryOptions());
export const useCourse = (id: string) => useQuery(courseQueryOptions(id));

export function useSaveCourse() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ course, values }: { course?: Course | null; values: CourseInput }) =>
      course
        ? apiJson<Course>(`/api/courses/${course.id}`, { method: "PUT", json: values, headers: { "If-Match": course.updatedAt } })
        : apiJson<Course>("/api/courses", { method: "POST", json: values }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.courses }),
  });
}

export function useDeleteCourse() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<void>(`/api/courses/${id}`, { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.courses }),
  });
}
