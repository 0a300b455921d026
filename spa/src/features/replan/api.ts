/**
 * Re-planning around late changes (server: project/timetabling/replan_api.py): the proposal of a change
 * and its application. What a change hits (GET /api/replan/impact) and the change's shape are in
 * lib/replan.ts, which the holidays and teachers features use too.
 */
import { useQuery } from "@tanstack/react-query";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import type { ChangeQuery } from "@/lib/replan";

export type Proposal = components["schemas"]["ReplanProposalOut"];
export type ReplanChange = components["schemas"]["ReplanChangeOut"];

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
