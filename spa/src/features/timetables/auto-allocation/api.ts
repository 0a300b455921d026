/**
 * Automatic teacher allocation and recommendations (issue 10; server: project/timetabling/auto_allocation_api.py).
 *
 * - POST /api/timetables/auto-allocate `{...scope, apply: false}` answers a proposal: assignments, the
 *   sessions nobody can take with the reason, per-teacher load, before/after figures (continuity %,
 *   highest and mean weekly utilisation %), solver status and time in ms. Nothing is written.
 * - The same call with `apply: true`, the proposal's `version` and its `assignments` writes it
 *   all-or-nothing; 412 (type "stale") when the timetable changed since the proposal was made, 400 when
 *   an assignment is no longer possible.
 * - GET /api/timetables/{sessionId}/recommendations ranks every teacher for one session with the rules
 *   (qualified, active, contract, available, no_clash, capacity) met or broken.
 *
 * These paths are not in the generated client yet (openapi.json predates them), so the answers are
 * checked with zod here. Keys live under `roots.timetables`: every timetable change refreshes them.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

/** Which sessions to allocate: explicit ids, a block group, and/or a date range (ISO dates, inclusive). */
export interface AllocationScope {
  blockGroupId?: string;
  sessionIds?: string[];
  start?: string;
  end?: string;
}

// ------------------------------------------------------------------------------------------ schemas

const assignmentSchema = z.object({
  sessionId: z.string(),
  teacherId: z.string(),
  teacherName: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  unitCode: z.string(),
  blockGroupCode: z.string(),
  hours: z.number(),
});

const unassignableSchema = z.object({
  sessionId: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  unitCode: z.string(),
  blockGroupCode: z.string(),
  reason: z.string(),
});

const teacherLoadSchema = z.object({
  teacherId: z.string(),
  teacherName: z.string(),
  sessions: z.number(),
  hours: z.number(),
});

const figuresSchema = z.object({
  continuityPercent: z.number(),
  highestUtilisation: z.number(),
  meanUtilisation: z.number(),
});

export const proposalSchema = z.object({
  applied: z.boolean(),
  version: z.string(),
  status: z.string(),
  solveMs: z.number(),
  sessionsInScope: z.number(),
  assignments: z.array(assignmentSchema),
  unassignable: z.array(unassignableSchema),
  perTeacher: z.array(teacherLoadSchema),
  before: figuresSchema,
  after: figuresSchema,
});
export type Proposal = z.infer<typeof proposalSchema>;
export type ProposedAssignment = z.infer<typeof assignmentSchema>;
export type Unassignable = z.infer<typeof unassignableSchema>;
export type AllocationFigures = z.infer<typeof figuresSchema>;

const ruleSchema = z.object({ rule: z.string(), met: z.boolean(), message: z.string() });

export const recommendationsSchema = z.object({
  sessionId: z.string(),
  recommendations: z.array(
    z.object({
      teacherId: z.string(),
      teacherName: z.string(),
      rank: z.number(),
      eligible: z.boolean(),
      rules: z.array(ruleSchema),
      weekHours: z.number(),
      maxWeeklyHours: z.number(),
      utilisationAfter: z.number(),
      continuity: z.boolean(),
    }),
  ),
});
export type Recommendations = z.infer<typeof recommendationsSchema>;
export type Recommendation = Recommendations["recommendations"][number];
export type RecommendationRule = z.infer<typeof ruleSchema>;

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
  return proposalSchema.parse(await apiJson("/api/timetables/auto-allocate", { method: "POST", json: { ...scopeBody(scope), apply: false } }));
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
  return proposalSchema.parse(await apiJson("/api/timetables/auto-allocate", { method: "POST", json: body }));
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
  return recommendationsSchema.parse(await apiJson(`/api/timetables/${encodeURIComponent(sessionId)}/recommendations`));
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
