/**
 * What a feature needs of re-planning (docs/engineering.md, "SPA boundaries"): the impact of a holiday,
 * term break, campus closure or teacher leave (GET /api/replan/impact: how many sessions of how many block
 * groups it hits), the notice that says so at the top of the page, and `openReplan`, which opens the
 * re-plan review. The review itself is the replan feature's; the app shell provides it at start-up
 * (`provideReplanReview` in app/router.tsx), so the holidays and teachers features open it without
 * importing another feature.
 */
import { useSyncExternalStore } from "react";
import { client } from "./api";
import type { components, operations } from "./api-schema";
import { plural } from "./format";

export type Impact = components["schemas"]["ImpactOut"];
export type ImpactQuery = NonNullable<operations["project_timetabling_replan_api_replan_impact"]["parameters"]["query"]>;
/** The change a re-plan is about, as POST /api/replan/propose and /apply take it (the impact's query). */
export type ChangeQuery = Omit<components["schemas"]["ReplanChangeIn"], "blockGroupIds" | "sessionIds">;

export async function fetchImpact(query: ImpactQuery): Promise<Impact> {
  const { data } = await client.GET("/api/replan/impact", { params: { query } });
  return data!;
}

/** "3 sessions of 2 block groups fall on this holiday" (null when nothing is hit). */
export function impactSentence(impact: Impact, what: "holiday" | "term break" | "closure" | "leave"): string | null {
  if (!impact.sessionCount) return null;
  const sessions = plural(impact.sessionCount, "session", "sessions");
  const groups = plural(impact.blockGroupCount, "block group", "block groups");
  const verb = impact.sessionCount === 1 ? "falls" : "fall";
  return `${sessions} of ${groups} ${verb} ${what === "leave" ? "in this leave" : `on this ${what}`}`;
}

let reviewer: ((change: ChangeQuery) => void) | null = null;

/** The app shell gives the opener of the re-plan review (the replan feature's) once, at start-up. */
export function provideReplanReview(open: (change: ChangeQuery) => void) {
  reviewer = open;
}

/** Opens the re-plan review of a change in a dialog ("Review re-plan"); throws when no review was provided. */
export function openReplan(change: ChangeQuery) {
  if (!reviewer) throw new Error("No re-plan review was provided (app/router.tsx provides it)");
  reviewer(change);
}

export interface ImpactNoticeValue {
  text: string;
  change: ChangeQuery;
}

let current: ImpactNoticeValue | null = null;
const listeners = new Set<() => void>();

/** Shows (or, with null, clears) the notice about what a saved holiday or leave hits. */
export function setImpactNotice(value: ImpactNoticeValue | null) {
  current = value;
  for (const listener of listeners) listener();
}

/** The notice shown now (null when none): the replan feature's ImpactNotice renders it. */
export function useImpactNotice(): ImpactNoticeValue | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => null,
  );
}

const ADVICE = {
  holiday: "Review a re-plan that moves them to free slots.",
  "term break": "Review a re-plan that moves them to free slots.",
  leave: "Review a re-plan that gives them another teacher.",
} as const;

/**
 * After a holiday, term break or leave is saved: a notice at the top of the page saying how many sessions
 * of how many block groups it hits (GET /api/replan/impact), when it hits any, with Review re-plan.
 * Failing to ask is not an error of the save, so it is silent.
 */
export async function warnOfImpact(query: ImpactQuery, what: keyof typeof ADVICE): Promise<void> {
  try {
    const sentence = impactSentence(await fetchImpact(query), what);
    setImpactNotice(sentence ? { text: `${sentence}. ${ADVICE[what]}`, change: query } : null);
  } catch {
    /* the save itself succeeded and said so */
  }
}
