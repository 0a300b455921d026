/**
 * Teachers (delivery.md §7): list (showInactive), detail, create, update (If-Match; deactivation is
 * isActive false), unit qualifications (/api/teacher-units) and the delivery summary by year.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface Teacher {
  id: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  jobTitle: string;
  employmentType: "ongoing" | "fixed_term" | "sessional";
  expiryDate: string | null;
  availability: "day" | "evening" | "both";
  maxWeeklyHours: number;
  isActive: boolean;
  qualifications: string;
  unitCount?: number;
  createdAt: string;
  updatedAt: string;
}
export interface TeacherUnit {
  id: string;
  teacherId: string;
  unitId: string;
  proficiencyLevel: string;
  unit: { id: string; code: string; name: string; nominalHours: number };
}
export interface DeliveryRow {
  unitCode: string;
  unitName: string;
  blockGroupCode: string;
  blockGroupName: string;
  nominalHours: number;
  actualDeliveryHours: number;
  firstDeliveryDate: string;
  lastDeliveryDate: string;
}
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

export const teachersQueryOptions = (showInactive: boolean) =>
  queryOptions({ queryKey: [...roots.teachers, "list", { showInactive }], queryFn: () => apiJson<Teacher[]>(`/api/teachers${showInactive ? "?showInactive=true" : ""}`) });
export const fetchTeacher = (id: string) => apiJson<Teacher>(`/api/teachers/${id}`);
export const teacherQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.teachers, "detail", id], queryFn: () => fetchTeacher(id) });
export const teacherUnitsQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.teacherUnits, id], queryFn: () => apiJson<TeacherUnit[]>(`/api/teacher-units/${id}`) });
export const deliverySummaryQueryOptions = (id: string, year: number) =>
  queryOptions({ queryKey: [...roots.teachers, "detail", id, "delivery-summary", year], queryFn: () => apiJson<DeliveryRow[]>(`/api/teachers/${id}/delivery-summary?year=${year}`) });
export const unitChoicesQueryOptions = () =>
  queryOptions({ queryKey: [...roots.units, "teacher-choices"], queryFn: () => apiJson<{ id: string; code: string; name: string }[]>("/api/units") });

export const useTeachers = (showInactive: boolean) => useQuery(teachersQueryOptions(showInactive));
export const useTeacher = (id: string) => useQuery(teacherQueryOptions(id));
export const useTeacherUnits = (id: string) => useQuery(teacherUnitsQueryOptions(id));
export const useDeliverySummary = (id: string, year: number) => useQuery(deliverySummaryQueryOptions(id, year));
export const useUnitChoices = () => useQuery(unitChoicesQueryOptions());

function useTeacherMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => Promise.all([roots.teachers, roots.teacherUnits].map((queryKey) => qc.invalidateQueries({ queryKey }))) });
}
export const useSaveTeacher = () =>
  useTeacherMutation(({ teacher, values }: { teacher?: Teacher | null; values: TeacherInput }) =>
    teacher
      ? apiJson<Teacher>(`/api/teachers/${teacher.id}`, { method: "PUT", json: values, headers: { "If-Match": teacher.updatedAt } })
      : apiJson<Teacher>("/api/teachers", { method: "POST", json: values }),
  );
export const useDeactivateTeacher = () =>
  useTeacherMutation((teacher: Teacher) => apiJson<Teacher>(`/api/teachers/${teacher.id}`, { method: "PUT", json: { isActive: false }, headers: { "If-Match": teacher.updatedAt } }));
export const useAddTeacherUnit = () => useTeacherMutation(({ teacherId, unitId }: { teacherId: string; unitId: string }) => apiJson<TeacherUnit>("/api/teacher-units", { method: "POST", json: { teacherId, unitId } }));
export const useRemoveTeacherUnit = () =>
  useTeacherMutation(({ teacherId, unitId }: { teacherId: string; unitId: string }) => apiJson<void>(`/api/teacher-units/${teacherId}/${unitId}`, { method: "DELETE" }));
