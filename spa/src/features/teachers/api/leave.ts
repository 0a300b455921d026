/**
 * Teacher leave (ADR 0014; server: project/staff/leave_api.py): GET/POST /api/teachers/{id}/leave,
 * PUT/DELETE /api/teachers/{id}/leave/{leaveId} with If-Match. Whole days, or with times those hours of
 * each day. A session of the teacher in the leave carries the hard `teacher_on_leave` conflict.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";

export type Leave = components["schemas"]["LeaveOut"];

const isoDate = (message: string) =>
  z
    .string()
    .min(1, message)
    .refine((v) => dayjs(v, "YYYY-MM-DD").isValid(), message);
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

export const leaveSchema = z
  .object({
    startDate: isoDate("Start date is required"),
    endDate: isoDate("End date is required"),
    startTime: z.string().refine((v) => v === "" || TIME.test(v), "Use HH:MM"),
    endTime: z.string().refine((v) => v === "" || TIME.test(v), "Use HH:MM"),
    reason: z.string().trim().max(255, "Reason must be at most 255 characters"),
  })
  .refine((v) => !v.startDate || !v.endDate || v.endDate >= v.startDate, { path: ["endDate"], message: "End date must be on or after start date" })
  .refine((v) => !v.startTime || !!v.endTime, { path: ["endTime"], message: "End time is required with a start time" })
  .refine((v) => !v.endTime || !!v.startTime, { path: ["startTime"], message: "Start time is required with an end time" })
  .refine((v) => !v.startTime || !v.endTime || v.endTime.slice(0, 5) > v.startTime.slice(0, 5), {
    path: ["endTime"],
    message: "End time must be after start time",
  });
export type LeaveFormValues = z.input<typeof leaveSchema>;
export type LeaveInput = z.output<typeof leaveSchema>;
export const leaveDefaults = (): LeaveFormValues => ({ startDate: "", endDate: "", startTime: "", endTime: "", reason: "" });
export const leaveValues = (l?: Leave | null): LeaveFormValues =>
  l
    ? { startDate: l.startDate, endDate: l.endDate, startTime: l.startTime?.slice(0, 5) ?? "", endTime: l.endTime?.slice(0, 5) ?? "", reason: l.reason }
    : leaveDefaults();

/** Under the teacher's key: a teacher event or a leave event refreshes it (lib/queryKeys.ts). */
export const leaveQueryOptions = (teacherId: string) =>
  queryOptions({
    queryKey: [...roots.teachers, "leave", teacherId],
    queryFn: async (): Promise<Leave[]> => {
      const { data } = await client.GET("/api/teachers/{teacher_id}/leave", { params: { path: { teacher_id: teacherId } } });
      return data!;
    },
  });
export const useLeave = (teacherId: string) => useQuery(leaveQueryOptions(teacherId));

export async function fetchLeave(teacherId: string, leaveId: string): Promise<Leave> {
  const { data } = await client.GET("/api/teachers/{teacher_id}/leave/{leave_id}", { params: { path: { teacher_id: teacherId, leave_id: leaveId } } });
  return data!;
}

const body = (v: LeaveInput) => ({ startDate: v.startDate, endDate: v.endDate, startTime: v.startTime || null, endTime: v.endTime || null, reason: v.reason });

export function useSaveLeave(teacherId: string) {
  return useRefreshingMutation([roots.teachers, roots.timetables], async ({ leave, values }: { leave?: Leave | null; values: LeaveInput }): Promise<Leave> => {
    const path = { teacher_id: teacherId };
    const { data } = leave
      ? await client.PUT("/api/teachers/{teacher_id}/leave/{leave_id}", {
          params: { path: { ...path, leave_id: leave.id } },
          body: body(values),
          headers: { "If-Match": leave.updatedAt },
        })
      : await client.POST("/api/teachers/{teacher_id}/leave", { params: { path }, body: body(values) });
    return data!;
  });
}

export function useDeleteLeave(teacherId: string) {
  return useRefreshingMutation([roots.teachers, roots.timetables], async (leave: Leave) => {
    await client.DELETE("/api/teachers/{teacher_id}/leave/{leave_id}", {
      params: { path: { teacher_id: teacherId, leave_id: leave.id } },
      headers: { "If-Match": leave.updatedAt },
    });
  });
}
