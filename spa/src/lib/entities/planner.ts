/**
 * The planner board's shapes that screens other than the board show (docs/adr/0026-planner-board.md):
 * a session as the board reads it (GET /api/board), a shaded span (holiday, term break, closure, leave),
 * and the scopes of a board's address, /planner/<scope>/<id>.
 */
import type { components } from "../api-schema";

export type BoardSession = components["schemas"]["PlannerSessionOut"];
export type Shade = components["schemas"]["PlannerShadeOut"];
export type PlannerScope = "block-group" | "teacher" | "room" | "campus";
