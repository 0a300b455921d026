/**
 * Timetable sessions (delivery.md §7, decisions.md §4, §6): list (never fresh), create, update with
 * If-Match, delete, bulk allocate, conflicts, template download and import; the filter choices.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiFetch, apiJson, CLIENT_ID, csrfToken } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export interface Session {
  id: string;
  blockGroupId: string;
  unitId: string;
  teacherId: string | null;
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  room: string;
  weekNumber: number;
  actualDate: string;
  term: number;
  actualHours: number;
  status: "scheduled" | "confirmed" | "cancelled" | "completed";
  notes: string;
  createdAt: string;
  updatedAt: string;
  unit: { id: string; code: string; name: string };
  blockGroup: { id: string; code: string; name: string };
  teacher: { id: string; firstName: string; lastName: string; name: string } | null;
  conflicts: string[];
}
export interface Conflict {
  type: string;
  severity: string;
  sessionIds: string[];
  message: string;
  date?: string | null;
}
export interface TimetableFilters {
  blockGroupId: string | null;
  teacherId: string | null;
  hidePast: boolean;
}
export interface Choice {
  id: string;
  code?: string;
  name?: string;
  firstName?: string;
  lastName?: string;
  isActive?: boolean;
  status?: string;
}

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
};
export const HARD_CONFLICTS = new Set(["teacher_double_booked", "group_double_booked", "room_double_booked", "holiday"]);
export const STATUS_LABELS: Record<string, string> = { scheduled: "Scheduled", confirmed: "Confirmed", cancelled: "Cancelled", completed: "Completed" };
export const DAY_LABELS = ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
export const sessionSchema = z.object({
  blockGroupId: z.string().min(1, "Block group is required"),
  unitId: z.string().min(1, "Unit is required"),
  teacherId: z.string(),
  yearLevel: z.coerce.number<unknown>().int().min(1).max(4),
  weekNumber: z.coerce.number<unknown>().int().min(1, "Week number must be at least 1"),
  dayOfWeek: z.coerce.number<unknown>().int().min(1).max(7),
  startTime: z.string().regex(TIME, "Invalid time format, use HH:MM:SS"),
  endTime: z.string().regex(TIME, "Invalid time format, use HH:MM:SS"),
  room: z.string().max(50, "Room must be at most 50 characters"),
  actualHours: z.coerce.number<unknown>().min(0.5, "Hours must be at least 0.5").max(12, "Hours cannot exceed 12 per session"),
  status: z.enum(["scheduled", "confirmed", "cancelled", "completed"]),
  notes: z.string(),
});
export type SessionFormValues = z.input<typeof sessionSchema>;
export type SessionInput = z.output<typeof sessionSchema>;

export function sessionBody(values: SessionInput) {
  const { yearLevel: _form, ...rest } = values;
  void _form;
  return { ...rest, teacherId: values.teacherId && values.teacherId !== "unassigned" ? values.teacherId : null };
}

function listUrl(f: TimetableFilters) {
  const p = new URLSearchParams();
  if (f.blockGroupId) p.set("blockGroupId", f.blockGroupId);
  if (f.teacherId) p.set("teacherId", f.teacherId);
  if (f.hidePast) p.set("hidePast", "true");
  const q = p.toString();
  return `/api/timetables${q ? `?${q}` : ""}`;
}

export const timetablesQueryOptions = (f: TimetableFilters) =>
  queryOptions({ queryKey: [...roots.timetables, "list", f], queryFn: () => apiJson<Session[]>(listUrl(f)), staleTime: 0, gcTime: 0 });
export const conflictsQueryOptions = (f: TimetableFilters) =>
  queryOptions({
    queryKey: [...roots.timetables, "conflicts", f],
    queryFn: () => {
      const p = new URLSearchParams();
      if (f.blockGroupId) p.set("blockGroupId", f.blockGroupId);
      if (f.teacherId) p.set("teacherId", f.teacherId);
      if (!f.hidePast) p.set("start", "2000-01-01");
      return apiJson<Conflict[]>(`/api/timetables/conflicts?${p.toString()}`);
    },
    staleTime: 0,
  });
export const blockGroupChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.blockGroups, "choices"], queryFn: () => apiJson<Choice[]>("/api/block-groups") });
export const teacherChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.teachers, "choices"], queryFn: () => apiJson<Choice[]>("/api/teachers") });
export const unitChoicesQueryOptions = () => queryOptions({ queryKey: [...roots.units, "choices"], queryFn: () => apiJson<Choice[]>("/api/units") });

export const useTimetables = (f: TimetableFilters) => useQuery(timetablesQueryOptions(f));
export const useConflicts = (f: TimetableFilters) => useQuery(conflictsQueryOptions(f));
export const useBlockGroupChoices = () => useQuery(blockGroupChoicesQueryOptions());
export const useTeacherChoices = () => useQuery(teacherChoicesQueryOptions());
export const useUnitChoices = () => useQuery(unitChoicesQueryOptions());

function useTimetableMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([roots.timetables, roots.blockGroups, roots.allocationGrid, roots.reports].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

export const fetchSession = (id: string) => apiJson<Session>(`/api/timetables/${id}`);
export const useSaveSession = () =>
  useTimetableMutation(({ session, values }: { session?: Session | null; values: SessionInput }) =>
    session
      ? apiJson<Session & { warnings: Conflict[] }>(`/api/timetables/${session.id}`, { method: "PUT", json: sessionBody(values), headers: { "If-Match": session.updatedAt } })
      : apiJson<Session & { warnings: Conflict[] }>("/api/timetables", { method: "POST", json: sessionBody(values) }),
  );
export const useDeleteSession = () => useTimetableMutation((id: string) => apiJson<void>(`/api/timetables/${id}`, { method: "DELETE" }));
export const useBulkAllocate = () =>
  useTimetableMutation(({ sessionIds, teacherId }: { sessionIds: string[]; teacherId: string }) =>
    apiJson<{ updated: number; warnings: Conflict[] }>("/api/timetables/bulk-allocate", { method: "PUT", json: { sessionIds, teacherId } }),
  );

export async function downloadTemplate(): Promise<Blob> {
  const response = await apiFetch("/api/timetables/template");
  return response.blob();
}

export interface ImportResult {
  message?: string;
  stats: { sessionsCreated: number; blockGroupsCreated: string[] | number; unitsCreated: string[] | number };
}
export interface ImportFailure {
  status: number;
  message: string;
  errors: { path: (string | number)[]; message: string; row?: number }[];
}

/** POST /api/timetables/import (multipart `file`) with upload progress (0..100). */
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
