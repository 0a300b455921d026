/**
 * Teachers (docs/behaviour/teachers.md): list (showInactive), detail, create, update (If-Match; deactivation is
 * isActive false), unit qualifications (/api/teacher-units) and the delivery summary by year.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import { fetchUnits } from "@/lib/entities/units";
import type { Teacher } from "@/lib/entities/teachers";

export { fetchTeachers, type Teacher, teachersQueryOptions, useTeachers } from "@/lib/entities/teachers";

export type TeacherUnit = components["schemas"]["TeacherUnitOut"];
export type DeliveryRow = components["schemas"]["DeliverySummaryRowOut"];
export type UnitChoice = components["schemas"]["UnitOut"];
export const EMPLOYMENT_LABELS: Record<string, string> = { ongoing: "Ongoing", fixed_term: "Fixed Term", sessional: "Sessional" };
export const AVAILABILITY_LABELS: Record<string, string> = { day: "Day", evening: "Evening", both: "Day and Evening" };

export const teacherSchema = z.object({
  employeeId: z.string().trim().min(1, "Employee ID is required").max(50, "Employee ID must be at most 50 characters"),
  firstName: z.string().trim().min(1, "First name is required").max(100),
  lastName: z.string().trim().min(1, "Last name is required").max(100),
  email: z.string().trim().min(1, "Email is required").email("Enter a valid email address"),
  phone: z.string().max(20, "Phone must be at most 20 characters"),
  jobTitle: z.string().max(100, "Job title must be at most 100 characters"),
  employmentType: z.enum(["ongoing", "fixed_term", "sessional"]),
  expiryDate: z
    .string()
    .optional()
    .transform((v) => (v ? v : null)),
  availability: z.enum(["day", "evening", "both"]),
  maxWeeklyHours: z.coerce.number<unknown>().int().min(1, "Max weekly hours must be at least 1").max(40, "Max weekly hours cannot exceed 40"),
  isActive: z.boolean(),
  qualifications: z.string(),
});
export type TeacherFormValues = z.input<typeof teacherSchema>;
export type TeacherInput = z.output<typeof teacherSchema>;
export const TEACHER_DEFAULTS: TeacherFormValues = {
  employeeId: "",
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  jobTitle: "",
  employmentType: "ongoing",
  expiryDate: "",
  availability: "day",
  maxWeeklyHours: 21,
  isActive: true,
  qualifications: "",
};

export async function fetchTeacher(id: string): Promise<Teacher> {
  const { data } = await client.GET("/api/teachers/{teacher_id}", { params: { path: { teacher_id: id } } });
  return data!;
}
async function fetchTeacherUnits(id: string): Promise<TeacherUnit[]> {
  const { data } = await client.GET("/api/teacher-units/{teacher_id}", { params: { path: { teacher_id: id } } });
  return data!;
}
async function fetchDeliverySummary(id: string, year: number): Promise<DeliveryRow[]> {
  const { data } = await client.GET("/api/teachers/{teacher_id}/delivery-summary", { params: { path: { teacher_id: id }, query: { year: String(year) } } });
  return data!;
}

export const teacherQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.teachers, "detail", id], queryFn: () => fetchTeacher(id) });
export const teacherUnitsQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.teacherUnits, id], queryFn: () => fetchTeacherUnits(id) });
export const deliverySummaryQueryOptions = (id: string, year: number) =>
  queryOptions({ queryKey: [...roots.teachers, "detail", id, "delivery-summary", year], queryFn: () => fetchDeliverySummary(id, year) });
export const unitChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.units, "teacher-choices"], queryFn: () => fetchUnits() });

export const useTeacher = (id: string) => useQuery(teacherQueryOptions(id));
export const useTeacherUnits = (id: string) => useQuery(teacherUnitsQueryOptions(id));
export const useDeliverySummary = (id: string, year: number) => useQuery(deliverySummaryQueryOptions(id, year));
export const useUnitChoices = () => useQuery(unitChoicesQueryOptions());

function useTeacherMutation<V, R>(fn: (v: V) => Promise<R>) {
  return useRefreshingMutation([roots.teachers, roots.teacherUnits], fn);
}
const teacherPath = (id: string) => ({ path: { teacher_id: id } });
export const useSaveTeacher = () =>
  useTeacherMutation(async ({ teacher, values }: { teacher?: Teacher | null; values: TeacherInput }): Promise<Teacher> => {
    const { data } = teacher
      ? await client.PUT("/api/teachers/{teacher_id}", { params: teacherPath(teacher.id), body: values, headers: { "If-Match": teacher.updatedAt } })
      : await client.POST("/api/teachers", { body: values });
    return data!;
  });
export const useDeactivateTeacher = () =>
  useTeacherMutation(async (teacher: Teacher): Promise<Teacher> => {
    const { data } = await client.PUT("/api/teachers/{teacher_id}", {
      params: teacherPath(teacher.id),
      body: { isActive: false },
      headers: { "If-Match": teacher.updatedAt },
    });
    return data!;
  });
export const useAddTeacherUnit = () =>
  useTeacherMutation(async ({ teacherId, unitId }: { teacherId: string; unitId: string }): Promise<TeacherUnit> => {
    const { data } = await client.POST("/api/teacher-units", { body: { teacherId, unitId } });
    return data!;
  });
export const useRemoveTeacherUnit = () =>
  useTeacherMutation(async ({ teacherId, unitId }: { teacherId: string; unitId: string }) => {
    await client.DELETE("/api/teacher-units/{teacher_id}/{unit_id}", { params: { path: { teacher_id: teacherId, unit_id: unitId } } });
  });
