/**
 * The planner board's read that screens other than the board show too (docs/adr/0026-planner-board.md):
 * GET /api/board of a block group, teacher, room or campus over a range of days, keyed under the
 * timetables root so a session's change event refetches it (lib/liveTargets.ts). A session as the board
 * reads it, a shaded span (holiday, term break, closure, leave), and the scopes of a board's address,
 * /planner/<scope>/<id>.
 */
import { useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type BoardSession = components["schemas"]["PlannerSessionOut"];
export type Shade = components["schemas"]["PlannerShadeOut"];
export type PlannerScope = "block-group" | "teacher" | "room" | "campus";
export const SCOPES: PlannerScope[] = ["block-group", "teacher", "room", "campus"];

const SCOPE_PARAM: Record<PlannerScope, "blockGroupId" | "teacherId" | "roomId" | "campusId"> = {
  "block-group": "blockGroupId",
  teacher: "teacherId",
  room: "roomId",
  campus: "campusId",
};

export const boardKey = (scope: PlannerScope, id: string, from: string, to: string) => [...roots.timetables, "board", scope, id, from, to] as const;

/** The sessions and shading of one board over `from`..`to` (YYYY-MM-DD); off until both are known; keeps the previous range's answer while the next loads. */
export function useBoard(scope: PlannerScope, id: string, from: string | null, to: string | null) {
  return useQuery({
    queryKey: boardKey(scope, id, from ?? "", to ?? ""),
    enabled: Boolean(from && to),
    placeholderData: (previous) => previous,
    queryFn: async () => {
      const { data } = await client.GET("/api/board", { params: { query: { [SCOPE_PARAM[scope]]: id, from: from!, to: to! } } });
      return data!;
    },
  });
}
