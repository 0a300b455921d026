import { notifyWarning } from "../../components/Notify";
import { fetchImpact, impactSentence, type ImpactQuery } from "./api";

const ADVICE = {
  holiday: "They show the holiday conflict in the timetable until they are moved.",
  "term break": "They show the holiday conflict in the timetable until they are moved.",
  leave: "They show “Teacher on leave” in the timetable until another teacher is allocated (Suggest allocation).",
} as const;

/**
 * After a holiday, term break or leave is saved: a warning toast saying how many sessions of how many
 * block groups it hits (GET /api/replan/impact), when it hits any. Failing to ask is not an error of the
 * save, so it is silent.
 */
export async function warnOfImpact(query: ImpactQuery, what: keyof typeof ADVICE): Promise<void> {
  try {
    const sentence = impactSentence(await fetchImpact(query), what);
    if (sentence) notifyWarning("Sessions affected", `${sentence}. ${ADVICE[what]}`);
  } catch {
    /* the save itself succeeded and said so */
  }
}
