/**
 * Re-planning around late changes (issue 17; server: project/timetabling/replan_api.py).
 * GET /api/replan/impact answers which sessions a holiday, term break, campus closure or teacher leave
 * hits, by block group and by teacher, with hours.
 */
import { client } from "../../lib/api";
import type { components, operations } from "../../lib/api-schema";

export type Impact = components["schemas"]["ImpactOut"];
export type ImpactQuery = NonNullable<operations["project_timetabling_replan_api_replan_impact"]["parameters"]["query"]>;

export async function fetchImpact(query: ImpactQuery): Promise<Impact> {
  const { data } = await client.GET("/api/replan/impact", { params: { query } });
  return data!;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 sessions of 2 block groups fall on this holiday" (null when nothing is hit). */
export function impactSentence(impact: Impact, what: "holiday" | "term break" | "leave"): string | null {
  if (!impact.sessionCount) return null;
  const sessions = plural(impact.sessionCount, "session", "sessions");
  const groups = plural(impact.blockGroupCount, "block group", "block groups");
  const verb = impact.sessionCount === 1 ? "falls" : "fall";
  return `${sessions} of ${groups} ${verb} ${what === "leave" ? "in this leave" : `on this ${what}`}`;
}
