import { fetchImpact, impactSentence, type ImpactQuery } from "./api";
import { setImpactNotice } from "./ImpactNotice";

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
