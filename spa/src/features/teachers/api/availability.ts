/**
 * Teacher availability and preferences (ADR 0027; server: project/staff/availability_api.py):
 * GET/PUT /api/teachers/{id}/availability with If-Match. Weekdays 0 = Monday .. 6 = Sunday, times "HH:MM".
 * The grid works in half-hour cells from 07:00 to 22:00; windows and preferences are built from runs of cells.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { CLIENT_ID, client, csrfToken } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";

export { DAYS, daysAvailable, type Pattern, patternSummary } from "@/lib/entities/availability";

export type Availability = components["schemas"]["AvailabilityOut"];
export type AvailabilityBody = components["schemas"]["AvailabilityIn"];
export type Window = { weekday: number; start: string; end: string };
export type Preference = Window & { level: string };

export const FIRST_SLOT = 14; // 07:00 in half hours
export const LAST_SLOT = 44; // 22:00
export const SLOTS = Array.from({ length: LAST_SLOT - FIRST_SLOT }, (_, i) => FIRST_SLOT + i);

/** A cell's state: unavailable, available (neutral), or available with a preference level. */
export const LEVELS = ["strongly_preferred", "preferred", "discouraged", "strongly_discouraged"] as const;
export type Cell = "off" | "on" | (typeof LEVELS)[number];
export const CELL_LABELS: Record<Cell, string> = {
  off: "Unavailable",
  on: "Available",
  strongly_preferred: "Strongly preferred",
  preferred: "Preferred",
  discouraged: "Avoid",
  strongly_discouraged: "Strongly avoid",
};
export const CELL_COLOURS: Record<Cell, string> = {
  off: "var(--mantine-color-gray-2)",
  on: "var(--mantine-color-teal-3)",
  strongly_preferred: "var(--mantine-color-teal-7)",
  preferred: "var(--mantine-color-teal-5)",
  discouraged: "var(--mantine-color-orange-3)",
  strongly_discouraged: "var(--mantine-color-red-4)",
};

export const slotTime = (slot: number) => `${String(Math.floor(slot / 2)).padStart(2, "0")}:${slot % 2 ? "30" : "00"}`;
const toSlot = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 2 + (m >= 30 ? 1 : 0);
};
const key = (day: number, slot: number) => `${day}:${slot}`;
export type Grid = Record<string, Cell>;

/** The grid of a pattern: a cell is available when a window covers it, with the level of a preference that does. */
export function gridOf(windows: Window[], preferences: Preference[]): Grid {
  const grid: Grid = {};
  for (const w of windows) for (let s = toSlot(w.start); s < toSlot(w.end); s++) grid[key(w.weekday, s)] = "on";
  for (const p of preferences) {
    for (let s = toSlot(p.start); s < toSlot(p.end); s++) {
      if (p.level === "prohibited") delete grid[key(p.weekday, s)];
      else if (grid[key(p.weekday, s)] && p.level !== "neutral") grid[key(p.weekday, s)] = p.level as Cell;
    }
  }
  return grid;
}

/** Runs of cells back to windows (every non-"off" cell) and preferences (runs of one level). */
export function patternOf(grid: Grid): { windows: Window[]; preferences: Preference[] } {
  const windows: Window[] = [];
  const preferences: Preference[] = [];
  for (let day = 0; day < 7; day++) {
    let open: number | null = null;
    let pref: { level: string; from: number } | null = null;
    for (let s = FIRST_SLOT; s <= LAST_SLOT; s++) {
      const cell = s < LAST_SLOT ? (grid[key(day, s)] ?? "off") : "off";
      if (cell !== "off" && open === null) open = s;
      if (cell === "off" && open !== null) {
        windows.push({ weekday: day, start: slotTime(open), end: slotTime(s) });
        open = null;
      }
      const level = cell === "off" || cell === "on" ? null : cell;
      if (pref && pref.level !== level) {
        preferences.push({ weekday: day, start: slotTime(pref.from), end: slotTime(s), level: pref.level });
        pref = null;
      }
      if (level && !pref) pref = { level, from: s };
    }
  }
  return { windows, preferences };
}

export const availabilityQueryOptions = (teacherId: string) =>
  queryOptions({
    queryKey: [...roots.teachers, "availability", teacherId],
    queryFn: async (): Promise<Availability> => {
      const { data } = await client.GET("/api/teachers/{teacher_id}/availability", { params: { path: { teacher_id: teacherId } } });
      return data!;
    },
  });
export const useAvailability = (teacherId: string) => useQuery(availabilityQueryOptions(teacherId));

export function useSaveAvailability(teacherId: string) {
  return useRefreshingMutation(
    [roots.teachers, roots.timetables, roots.allocationGrid],
    async ({ body, updatedAt }: { body: AvailabilityBody; updatedAt: string }): Promise<Availability> => {
      const { data } = await client.PUT("/api/teachers/{teacher_id}/availability", {
        params: { path: { teacher_id: teacherId } },
        body,
        headers: { "If-Match": updatedAt },
      });
      return data!;
    },
  );
}

export const AVAILABILITY_EXPORT_URL = "/api/teachers/availability/export";
export type AvailabilityImportError = { path: (string | number)[]; message: string; row?: number };

/** POST /api/teachers/availability/import (multipart `file`): the answer's message, or throws `{message, errors}` (row errors). */
export async function importAvailability(file: File): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  const response = await fetch("/api/teachers/availability/import", {
    method: "POST",
    body: form,
    credentials: "same-origin",
    headers: { "X-CSRFToken": csrfToken(), "X-Client-Id": CLIENT_ID },
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string; errors?: AvailabilityImportError[] };
  if (!response.ok) throw { message: body.message ?? `Import failed (${response.status})`, errors: body.errors ?? [] };
  return body.message ?? "Imported";
}
