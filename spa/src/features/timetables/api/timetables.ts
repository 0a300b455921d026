/**
 * Timetable sessions (docs/behaviour/timetables.md, docs/behaviour/conflicts.md §1; docs/behaviour/concurrency.md §2): list (never fresh), create, update with
 * If-Match, delete, bulk allocate, conflicts, template download and import; the filter choices.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiFetch, client, CLIENT_ID, csrfToken } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import { fetchAllBlockGroups } from "@/lib/entities/blockGroups";
import { fetchTeachers } from "@/lib/entities/teachers";
import type { Session, TimetableFilters } from "@/lib/entities/timetables";
import { fetchUnits } from "@/lib/entities/units";
import { endAfterStart, typedTime } from "@/lib/times";

export { type Session, type TimetableFilters, timetablesQueryOptions, useTimetables } from "@/lib/entities/timetables";

export type SavedSession = components["schemas"]["SessionWriteOut"];
export type Conflict = components["schemas"]["ConflictOut"];
export type BulkAllocateResult = components["schemas"]["BulkAllocateOut"];
export type BulkRoomResult = components["schemas"]["BulkRoomOut"];
export type BlockGroupChoice = components["schemas"]["BlockGroupOut"];
export type TeacherChoice = components["schemas"]["TeacherOut"];
export type UnitChoice = components["schemas"]["UnitOut"];

export const CONFLICT_LABELS: Record<string, string> = {
  teacher_double_booked: "Teacher double-booked",
  group_double_booked: "Group double-booked",
  room_double_booked: "Room double-booked",
  holiday: "On a holiday",
  teacher_over_capacity: "Teacher over weekly capacity",
  teacher_unqualified: "Teacher not qualified for unit",
  teacher_unavailable: "Outside teacher availability",
  teacher_inactive: "Teacher inactive",
  teacher_contract_expired: "Teacher contract expired",
  teacher_on_leave: "Teacher on leave",
  room_over_capacity: "Room too small",
  room_other_campus: "Room at another campus",
  // A painted availability pattern, its limits and campuses (ADR 0027): hard.
  teacher_outside_availability: "Teacher not available then",
  teacher_over_daily_hours: "Teacher over daily hours",
  teacher_over_weekly_hours: "Teacher over weekly hours",
  teacher_over_days: "Teacher over days per week",
  teacher_other_campus: "Teacher does not teach at this campus",
};
export const HARD_CONFLICTS = new Set([
  "teacher_double_booked",
  "group_double_booked",
  "room_double_booked",
  "holiday",
  "teacher_on_leave",
  "teacher_outside_availability",
  "teacher_over_daily_hours",
  "teacher_over_weekly_hours",
  "teacher_over_days",
  "teacher_other_campus",
]);
export const STATUS_LABELS: Record<string, string> = { scheduled: "Scheduled", confirmed: "Confirmed", cancelled: "Cancelled", completed: "Completed" };
export const DAY_LABELS = ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export const sessionSchema = z
  .object({
    blockGroupId: z.string().min(1, "Block group is required"),
    unitId: z.string().min(1, "Unit is required"),
    teacherId: z.string(),
    yearLevel: z.coerce.number<unknown>().int().min(1).max(4),
    weekNumber: z.coerce.number<unknown>().int().min(1, "Week number must be at least 1"),
    dayOfWeek: z.coerce.number<unknown>().int().min(1).max(7),
    // Typed and shown as HH:MM like the schedule dialog's (ADR 0018), sent as HH:MM:SS.
    startTime: typedTime,
    endTime: typedTime,
    room: z.string().max(50, "Room must be at most 50 characters"),
    actualHours: z.coerce.number<unknown>().min(0.5, "Hours must be at least 0.5").max(12, "Hours cannot exceed 12 per session"),
    status: z.enum(["scheduled", "confirmed", "cancelled", "completed"]),
    notes: z.string(),
  })
  .refine(...endAfterStart);
export type SessionFormValues = z.input<typeof sessionSchema>;
export type SessionInput = z.output<typeof sessionSchema>;

export function sessionBody(values: SessionInput) {
  const { yearLevel: _form, ...rest } = values;
  void _form;
  return { ...rest, teacherId: values.teacherId && values.teacherId !== "unassigned" ? values.teacherId : null };
}

async function fetchConflicts(f: TimetableFilters): Promise<Conflict[]> {
  const query = { blockGroupId: f.blockGroupId || undefined, teacherId: f.teacherId || undefined, start: f.hidePast ? undefined : "2000-01-01" };
  const { data } = await client.GET("/api/timetables/conflicts", { params: { query } });
  return data!;
}

export const conflictsQueryOptions = (f: TimetableFilters) =>
  queryOptions({ queryKey: [...roots.timetables, "conflicts", f], queryFn: () => fetchConflicts(f), staleTime: 0 });
export const blockGroupChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.blockGroups, "choices"], queryFn: fetchAllBlockGroups });
export const teacherChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.teachers, "choices"], queryFn: () => fetchTeachers(false) });
export const unitChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.units, "choices"], queryFn: () => fetchUnits() });

export const useConflicts = (f: TimetableFilters) => useQuery(conflictsQueryOptions(f));
export const useBlockGroupChoices = () => useQuery(blockGroupChoicesQueryOptions());
export const useTeacherChoices = () => useQuery(teacherChoicesQueryOptions());
export const useUnitChoices = () => useQuery(unitChoicesQueryOptions());

function useTimetableMutation<V, R>(fn: (v: V) => Promise<R>) {
  return useRefreshingMutation([roots.timetables, roots.blockGroups, roots.allocationGrid, roots.reports], fn);
}

const sessionPath = (id: string) => ({ path: { session_id: id } });
export async function fetchSession(id: string): Promise<Session> {
  const { data } = await client.GET("/api/timetables/{session_id}", { params: sessionPath(id) });
  return data!;
}
export const useSaveSession = () =>
  useTimetableMutation(async ({ session, values }: { session?: Session | null; values: SessionInput }): Promise<SavedSession> => {
    const { data } = session
      ? await client.PUT("/api/timetables/{session_id}", {
          params: sessionPath(session.id),
          body: sessionBody(values),
          headers: { "If-Match": session.updatedAt },
        })
      : await client.POST("/api/timetables", { body: sessionBody(values) });
    return data!;
  });
export const useDeleteSession = () =>
  useTimetableMutation(async (id: string) => {
    await client.DELETE("/api/timetables/{session_id}", { params: sessionPath(id) });
  });
export const useBulkAllocate = () =>
  useTimetableMutation(async ({ sessionIds, teacherId }: { sessionIds: string[]; teacherId: string }): Promise<BulkAllocateResult> => {
    const { data } = await client.PUT("/api/timetables/bulk-allocate", { body: { sessionIds, teacherId } });
    return data!;
  });
/** Put the selected sessions in one room, all or nothing (ADR 0019; 409 names the clash). */
export const useBulkSetRoom = () =>
  useTimetableMutation(async ({ sessionIds, roomId }: { sessionIds: string[]; roomId: string }): Promise<BulkRoomResult> => {
    const { data } = await client.PUT("/api/timetables/bulk-room", { body: { sessionIds, roomId } });
    return data!;
  });

export async function downloadTemplate(): Promise<Blob> {
  const response = await apiFetch("/api/timetables/template");
  return response.blob();
}

export type ImportResult = components["schemas"]["ImportOut"];
export interface ImportFailure {
  status: number;
  message: string;
  errors: { path: (string | number)[]; message: string; row?: number }[];
}

/**
 * POST /api/timetables/import (multipart `file`) with upload progress (0..100): XMLHttpRequest, since
 * fetch (and so the typed client) reports no upload progress; the answer is typed with ImportOut.
 */
export function uploadImport(file: File, onProgress: (percent: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/timetables/import");
    xhr.withCredentials = true;
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.setRequestHeader("X-Client-Id", CLIENT_ID);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportResult);
      else {
        const b = (body ?? {}) as Partial<ImportFailure>;
        reject({ status: xhr.status, message: b.message ?? "", errors: b.errors ?? [] } satisfies ImportFailure);
      }
    };
    xhr.onerror = () => reject({ status: 0, message: "", errors: [] } satisfies ImportFailure);
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}
