/**
 * The planner board's reads and its one write (docs/adr/0026-planner-board.md).
 *
 * - `useBoard(scope, id, from, to)`: GET /api/board, keyed under the timetables root, so a session's change
 *   event refetches it (lib/liveTargets.ts: the non-list timetable screens are refetched at once, then
 *   coalesced).
 * - `useUnavailableShading(teachers, from, to)`: GET /api/teachers/unavailable per teacher (docs/adr/0027), the
 *   times outside each painted availability as shading of kind "unavailable", keyed under the teachers root
 *   (painting is a `teacher` change event).
 * - `fetchConflictIndex`, `fetchBoardTeachers`: read when a drag starts or a session is selected.
 * - `moveSession`: the existing PUT /api/timetables/{id} with If-Match = the board's updatedAt. The other
 *   fields come from the session's full row, so its notes and hours are kept. Answers `{ok: true}` or
 *   `{ok: false, reason}` with the reason in words (409: the conflicts' messages; 412: someone else changed
 *   it).
 */
import { type UseQueryResult, useQueries } from "@tanstack/react-query";
import { useCallback } from "react";
import { ApiError, client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import type { BoardSession, Shade } from "@/lib/entities/planner";

export type { BoardSession, Shade } from "@/lib/entities/planner";
export type ConflictIndex = components["schemas"]["PlannerConflictIndexOut"];
export type Blocked = components["schemas"]["PlannerBlockedOut"];
export type BoardTeacher = components["schemas"]["PlannerTeacherOut"];

export { boardKey, type PlannerScope as Scope, SCOPES, useBoard } from "@/lib/entities/planner";

export const unavailableKey = (teacherId: string, from: string, to: string) => [...roots.teachers, "unavailable", teacherId, from, to] as const;

/** The unavailable times of ``teachers`` in [from, to] as shading (kind "unavailable", part days): named
 * "Unavailable", or "<name> unavailable" when ``named`` (a board of several teachers). Teachers without a
 * painted availability have none. One request per teacher. */
export function useUnavailableShading(teachers: { id: string; name: string }[], from: string | null, to: string | null, named: boolean): Shade[] {
  // A stable combine: the shading keeps its identity until a teacher's answer changes, so the calendar
  // lays out its background events again only then.
  const combine = useCallback(
    (results: UseQueryResult<UnavailableSpan[]>[]): Shade[] =>
      results.flatMap((r, i) =>
        (r.data ?? []).map((u) => ({
          kind: "unavailable",
          name: named ? `${teachers[i].name} unavailable` : "Unavailable",
          start: u.date,
          end: u.date,
          startTime: u.start,
          endTime: u.end,
          teacherId: u.teacherId,
        })),
      ),
    [teachers, named],
  );
  return useQueries({
    queries: teachers.map((t) => ({
      queryKey: unavailableKey(t.id, from ?? "", to ?? ""),
      enabled: Boolean(from && to),
      placeholderData: (previous: UnavailableSpan[] | undefined) => previous,
      queryFn: async () => {
        const { data } = await client.GET("/api/teachers/unavailable", { params: { query: { start: from!, end: to!, teacherId: t.id } } });
        return data!;
      },
    })),
    combine,
  });
}

export type UnavailableSpan = components["schemas"]["UnavailableOut"];

export async function fetchConflictIndex(sessionId: string, from: string, to: string, teacherId?: string): Promise<ConflictIndex> {
  const { data } = await client.GET("/api/board/conflict-index", { params: { query: { sessionId, from, to, ...(teacherId ? { teacherId } : {}) } } });
  return data!;
}

export async function fetchBoardTeachers(sessionId: string): Promise<BoardTeacher[]> {
  const { data } = await client.GET("/api/board/teachers", { params: { query: { sessionId } } });
  return data!;
}

export interface MoveTo {
  date: string; // YYYY-MM-DD
  start: string; // HH:MM
  end: string; // HH:MM
  teacherId?: string | null; // given: the new teacher (null: unassigned)
}

export type MoveOutcome = { ok: true } | { ok: false; status: number; reason: string };

/** The reason of a refused write, in words. */
export function refusalReason(error: unknown): { status: number; reason: string } {
  if (error instanceof ApiError) {
    const conflicts = error.body?.conflicts ?? [];
    if (error.status === 409 && conflicts.length) return { status: 409, reason: conflicts.map((c) => c.message).join(" ") };
    if (error.status === 412) return { status: 412, reason: "Someone else changed this session after the board loaded it. The board now shows their version." };
    const first = error.body?.errors?.[0]?.message;
    return { status: error.status, reason: first ?? error.body?.message ?? "The session could not be saved." };
  }
  return { status: 0, reason: "The session could not be saved. Check your connection and try again." };
}

/** "09:30" -> 570. */
export function minutes(hm: string): number {
  const [h, m] = hm.split(":").map(Number);
  return h * 60 + m;
}

export async function moveSession(session: BoardSession, to: MoveTo): Promise<MoveOutcome> {
  try {
    const { data: row } = await client.GET("/api/timetables/{session_id}", { params: { path: { session_id: session.id } } });
    const full = row!;
    const sameLength = minutes(to.end) - minutes(to.start) === minutes(session.endTime) - minutes(session.startTime);
    await client.PUT("/api/timetables/{session_id}", {
      params: { path: { session_id: session.id } },
      headers: { "If-Match": session.updatedAt },
      body: {
        blockGroupId: full.blockGroupId,
        unitId: full.unitId,
        teacherId: to.teacherId !== undefined ? to.teacherId : (full.teacherId ?? null),
        room: full.room,
        roomId: full.roomId ?? null,
        actualDate: to.date,
        startTime: `${to.start}:00`,
        endTime: `${to.end}:00`,
        // A move keeps the recorded hours; a resize lets them follow the new times.
        actualHours: sameLength ? String(full.actualHours) : null,
        status: full.status,
        notes: full.notes,
      } as never,
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, ...refusalReason(error) };
  }
}
