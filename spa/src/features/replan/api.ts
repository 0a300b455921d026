/**
 * Re-planning around late changes (ADR 0015; server: project/timetabling/replan_api.py).
 * GET /api/replan/impact answers which sessions a holiday, term break, campus closure or teacher leave
 * hits, by block group and by teacher, with hours.
 */
import { useQuery } from "@tanstack/react-query";
import { client } from "../../lib/api";
import type { components, operations } from "../../lib/api-schema";
import { roots } from "../../lib/queryKeys";
import { useRefreshingMutation } from "../../lib/refreshingMutation";
import { plural } from "../timetables/auto-allocation/format";

export type Impact = components["schemas"]["ImpactOut"];
export type Proposal = components["schemas"]["ReplanProposalOut"];
export type ReplanChange = components["schemas"]["ReplanChangeOut"];
export type ImpactQuery = NonNullable<operations["project_timetabling_replan_api_replan_impact"]["parameters"]["query"]>;

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

/** The change a re-plan is about, as POST /api/replan/propose and /apply take it (the impact's query). */
export type ChangeQuery = Omit<components["schemas"]["ReplanChangeIn"], "blockGroupIds" | "sessionIds">;

/** POST /api/replan/propose: a proposal, computed once per opening of the review (it writes nothing). */
export const useProposal = (change: ChangeQuery) =>
  useQuery({
    queryKey: ["replan", "proposal", change],
    queryFn: async (): Promise<Proposal> => {
      const { data } = await client.POST("/api/replan/propose", { body: change });
      return data!;
    },
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });

export type ReplanOption = Proposal["options"][number];
export type OptionKey = ReplanOption["key"];

/** POST /api/replan/apply: the server writes the chosen option of its stored proposal, exactly. */
export function useApplyReplan() {
  return useRefreshingMutation(
    [roots.timetables, roots.blockGroups, roots.dashboard],
    async ({ proposal, option }: { proposal: Proposal; option: OptionKey }) => {
      const { data } = await client.POST("/api/replan/apply", { body: { proposalId: proposal.id, version: proposal.version, option } });
      return data!;
    },
  );
}
