/**
 * Block groups (delivery.md §7): list with repeated status/course/studyMode filters, detail, create,
 * update (If-Match), delete; the choices the form needs (courses, campuses).
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export type BlockGroupStatus = "planned" | "active" | "consolidated" | "completed";
export const STATUSES: { value: BlockGroupStatus; label: string; color: string }[] = [
  { value: "planned", label: "Planned", color: "blue" },
  { value: "active", label: "Active", color: "green" },
  { value: "consolidated", label: "Consolidated", color: "orange" },
  { value: "completed", label: "Completed", color: "gray" },
];
export const statusLabel = (s: string) => STATUSES.find((x) => x.value === s)?.label ?? s;
export const statusColor = (s: string) => STATUSES.find((x) => x.value === s)?.color ?? "gray";
export const DELIVERY_LABELS: Record<string, string> = { on_campus: "On Campus", remote: "Remote" };
export const STUDY_LABELS: Record<string, string> = { full_time: "Full Time", part_time: "Part Time" };
export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
export const daysText = (days: number[] | undefined) => (days ?? []).map((d) => DAY_NAMES[d] ?? String(d)).join(", ");

export interface BlockGroup {
  id: string;
  code: string;
  name: string;
  courseId: string | null;
  campusId: string | null;
  course: { id: string; code: string; name: string } | null;
  campus: { id: string; name: string; abbreviation: string } | null;
  deliveryMode: "on_campus" | "remote";
  studyMode: "full_time" | "part_time";
  cohortSize: number;
  startDate: string;
  endDate: string | null;
  preferredDays: number[];
  preferredDaysText?: string;
  sessionDuration: number;
  sessionsPerDay: number;
  status: BlockGroupStatus;
  timetableCount: number;
  studyPlanNames: string[];
  createdAt: string;
  updatedAt: string;
}

export interface BlockGroupFilters {
  status: string[];
  course: string[];
  studyMode: string[];
}

export const blockGroupSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(50, "Code must be at most 50 characters"),
  name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
  courseId: z.string(),
  campusId: z.string(),
  deliveryMode: z.enum(["on_campus", "remote"]),
  studyMode: z.enum(["full_time", "part_time"]),
  cohortSize: z.coerce.number<unknown>({ error: "Cohort size must be at least 1" }).int().min(1, "Cohort size must be at least 1"),
  startDate: z.string().min(1, "Start date is required"),
  endDate: z
    .string()
    .optional()
    .transform((v) => (v ? v : null)),
  preferredDays: z.string().max(255, "Preferred days must be at most 255 characters"),
  sessionDuration: z.coerce.number<unknown>().min(1, "Session duration must be at least 1 hour"),
  sessionsPerDay: z.coerce.number<unknown>().int().min(1, "Sessions per day must be at least 1"),
  status: z.enum(["planned", "active", "consolidated", "completed"]),
});
export type BlockGroupFormValues = z.input<typeof blockGroupSchema>;
export type BlockGroupInput = z.output<typeof blockGroupSchema>;
export const BLOCK_GROUP_DEFAULTS: BlockGroupFormValues = {
  code: "",
  name: "",
  courseId: "",
  campusId: "",
  deliveryMode: "on_campus",
  studyMode: "full_time",
  cohortSize: 20,
  startDate: "",
  endDate: "",
  preferredDays: "",
  sessionDuration: 3,
  sessionsPerDay: 2,
  status: "active",
};

function listUrl(filters: BlockGroupFilters) {
  const params = new URLSearchParams();
  filters.status.forEach((s) => params.append("status", s));
  filters.course.forEach((c) => params.append("course", c));
  filters.studyMode.forEach((m) => params.append("studyMode", m));
  const q = params.toString();
  return `/api/block-groups${q ? `?${q}` : ""}`;
}

export const blockGroupsQueryOptions = (filters: BlockGroupFilters) =>
  queryOptions({ queryKey: [...roots.blockGroups, "list", filters], queryFn: () => apiJson<BlockGroup[]>(listUrl(filters)) });
export const fetchBlockGroup = (id: string) => apiJson<BlockGroup>(`/api/block-groups/${id}`);
export const blockGroupQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.blockGroups, "detail", id], queryFn: () => fetchBlockGroup(id) });
export const useBlockGroups = (filters: BlockGroupFilters) => useQuery({ ...blockGroupsQueryOptions(filters), placeholderData: keepPreviousData });
export const useBlockGroup = (id: string) => useQuery(blockGroupQueryOptions(id));

export interface Option {
  id: string;
  code?: string;
  name: string;
  abbreviation?: string;
}
export const courseOptionsQueryOptions = () => queryOptions({ queryKey: [...roots.courses, "options"], queryFn: () => apiJson<Option[]>("/api/courses") });
export const campusOptionsQueryOptions = () => queryOptions({ queryKey: [...roots.campuses, "list"], queryFn: () => apiJson<Option[]>("/api/campuses") });
export const useCourseOptions = () => useQuery(courseOptionsQueryOptions());
export const useCampusOptions = () => useQuery(campusOptionsQueryOptions());

export function toBody(values: BlockGroupInput) {
  return { ...values, courseId: values.courseId || null, campusId: values.campusId || null, endDate: values.endDate || null };
}

export function useSaveBlockGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ group, values }: { group?: BlockGroup | null; values: BlockGroupInput }) =>
      group
        ? apiJson<BlockGroup>(`/api/block-groups/${group.id}`, { method: "PUT", json: toBody(values), headers: { "If-Match": group.updatedAt } })
        : apiJson<BlockGroup>("/api/block-groups", { method: "POST", json: toBody(values) }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.blockGroups }),
  });
}

export function useDeleteBlockGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<void>(`/api/block-groups/${id}`, { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.blockGroups }),
  });
}
