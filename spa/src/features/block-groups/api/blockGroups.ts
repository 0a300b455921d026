/**
 * Block groups (docs/behaviour/block-groups.md): list with repeated status/course/studyMode filters, detail, create,
 * update (If-Match), delete; the choices the form needs (courses, campuses).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import { fetchCourses } from "@/lib/entities/courses";
import type { BlockGroup } from "@/lib/entities/blockGroups";

export { type BlockGroup, type BlockGroupFilters, blockGroupsQueryOptions, fetchAllBlockGroups, useBlockGroups } from "@/lib/entities/blockGroups";
export { type CampusOption, campusOptionsQueryOptions, useCampusOptions } from "@/lib/entities/campuses";

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
  // The room type schedule generation picks rooms of ("" none).
  preferredRoomType: z.enum(["", "classroom", "computer_lab", "workshop", "kitchen", "online", "other"]),
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
  preferredRoomType: "",
};

export async function fetchBlockGroup(id: string): Promise<BlockGroup> {
  const { data } = await client.GET("/api/block-groups/{block_group_id}", { params: { path: { block_group_id: id } } });
  return data!;
}

export const blockGroupQueryOptions = (id: string) => queryOptions({ queryKey: [...roots.blockGroups, "detail", id], queryFn: () => fetchBlockGroup(id) });
export const useBlockGroup = (id: string) => useQuery(blockGroupQueryOptions(id));

export type CourseOption = components["schemas"]["CourseOut"];
export const courseOptionsQueryOptions = () => queryOptions({ queryKey: [...roots.courses, "options"], queryFn: fetchCourses });
export const useCourseOptions = () => useQuery(courseOptionsQueryOptions());

export function toBody(values: BlockGroupInput) {
  return { ...values, courseId: values.courseId || null, campusId: values.campusId || null, endDate: values.endDate || null };
}

export function useSaveBlockGroup() {
  return useRefreshingMutation([roots.blockGroups], async ({ group, values }: { group?: BlockGroup | null; values: BlockGroupInput }): Promise<BlockGroup> => {
    const { data } = group
      ? await client.PUT("/api/block-groups/{block_group_id}", {
          params: { path: { block_group_id: group.id } },
          body: toBody(values),
          headers: { "If-Match": group.updatedAt },
        })
      : await client.POST("/api/block-groups", { body: toBody(values) });
    return data!;
  });
}

export function useDeleteBlockGroup() {
  return useRefreshingMutation([roots.blockGroups], async (id: string) => {
    await client.DELETE("/api/block-groups/{block_group_id}", { params: { path: { block_group_id: id } } });
  });
}
