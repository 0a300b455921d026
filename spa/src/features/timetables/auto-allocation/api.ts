/**
 * Automatic teacher allocation and recommendations (server: project/timetabling/auto_allocation_api.py).
 *
 * - POST /api/timetables/auto-allocate `{...scope, apply: false}` answers a proposal: assignments, the
 *   sessions nobody can take with the reason, per-teacher load, before/after figures (continuity %,
 *   highest and mean weekly utilisation %), solver status and time in ms. Nothing is written.
 * - The same call with `apply: true`, the proposal's `version` and its `assignments` writes it
 *   all-or-nothing; 412 (type "stale") when the timetable changed since the proposal was made, 400 when
 *   an assignment is no longer possible.
 * - GET /api/timetables/{sessionId}/recommendations ranks every teacher for one session with the rules
 *   (qualified, active, contract, not_on_leave, available, campus, limits, no_clash, capacity) met or broken.
 *
 * Calls go through the generated client; the answers are typed with AutoAllocateOut and RecommendationsOut.
 * Keys live under `roots.timetables`: every timetable change refreshes them.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";

/** Which sessions to allocate: explicit ids, a block group, and/or a date range (ISO dates, inclusive). */
export interface AllocationScope {
  blockGroupId?: string;
  sessionIds?: string[];
  start?: string;
  end?: string;
}

// -------------------------------------------------------------------------------------------- types

export type Proposal = components["schemas"]["AutoAllocateOut"];
export type ProposedAssignment = components["schemas"]["AssignmentOut"];
export type Unassignable = components["schemas"]["UnassignableOut"];
export type AllocationFigures = components["schemas"]["FiguresOut"];
export type Recommendations = components["schemas"]["RecommendationsOut"];
export type Recommendation = components["schemas"]["RecommendationOut"];
export type RecommendationRule = components["schemas"]["RuleOut"];

// --------------------------------------------------------------------------------------------- keys

/** Only the scope fields that are set, so equal scopes give equal keys and bodies. */
export function scopeBody(scope: AllocationScope): AllocationScope {
  const out: AllocationScope = {};
  if (scope.blockGroupId) out.blockGroupId = scope.blockGroupId;
  if (scope.sessionIds?.length) out.sessionIds = [...scope.sessionIds];
  if (scope.start) out.start = scope.start;
  if (scope.end) out.end = scope.end;
  return out;
}

export const autoAllocationKeys = {
  all: [...roots.timetables, "auto-allocation"] as const,
  proposal: (scope: AllocationScope) => [...roots.timetables, "auto-allocation", "proposal", scopeBody(scope)] as const,
  recommendations: (sessionId: string) => [...roots.timetables, "auto-allocation", "recommendations", sessionId] as const,
};

// ---------------------------------------------------------------------------------------- proposal

export async function fetchProposal(scope: AllocationScope): Promise<Proposal> {
  const { data } = await client.POST("/api/timetables/auto-allocate", { body: { ...scopeBody(scope), apply: false } });
  return data!;
}

/**
 * A proposal is a snapshot the user reviews before applying: once loaded it is not refetched by change
 * events (the query disables itself while it holds data; `refetch()` — "Suggest again" — still runs), and
 * applying a proposal that went out of date answers 412. Not cached after the dialog closes, never retried
 * (each call runs the solver for up to 8 s).
 */
export const proposalQueryOptions = (scope: AllocationScope) =>
  queryOptions({
    queryKey: autoAllocationKeys.proposal(scope),
    queryFn: () => fetchProposal(scope),
    enabled: (query) => query.state.data === undefined,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useAllocationProposal = (scope: AllocationScope, opened = true) => {
  const options = proposalQueryOptions(scope);
  return useQuery({ ...options, enabled: opened ? options.enabled : false });
};

// ------------------------------------------------------------------------------------------- apply

export interface ApplyInput {
  scope: AllocationScope;
  proposal: Pick<Proposal, "version" | "assignments">;
}

export async function applyProposal({ scope, proposal }: ApplyInput): Promise<Proposal> {
  const body = {
    ...scopeBody(scope),
    apply: true,
    version: proposal.version,
    assignments: proposal.assignments.map((a) => ({ sessionId: a.sessionId, teacherId: a.teacherId })),
  };
  const { data } = await client.POST("/api/timetables/auto-allocate", { body });
  return data!;
}

/** The areas an allocation changes (sessions, dashboard, allocation grid, reports, group and teacher loads). */
export const AFFECTED_ROOTS = [roots.timetables, roots.dashboard, roots.allocationGrid, roots.reports, roots.blockGroups, roots.teachers] as const;

export function useApplyProposal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: applyProposal,
    onSuccess: () => {
      for (const queryKey of AFFECTED_ROOTS) void qc.invalidateQueries({ queryKey });
    },
  });
}

// --------------------------------------------------------------------------------- recommendations

export async function fetchRecommendations(sessionId: string): Promise<Recommendations> {
  const { data } = await client.GET("/api/timetables/{session_id}/recommendations", { params: { path: { session_id: sessionId } } });
  return data!;
}

/** Depends on the whole week's bookings, so always fresh when the Allocate Teacher dialog opens. */
export const recommendationsQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: autoAllocationKeys.recommendations(sessionId),
    queryFn: () => fetchRecommendations(sessionId),
    staleTime: 0,
  });

export const useRecommendations = (sessionId: string | null | undefined) =>
  useQuery({ ...recommendationsQueryOptions(sessionId ?? ""), enabled: Boolean(sessionId) });
