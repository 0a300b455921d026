/** Answers of the auto-allocation endpoints for the component tests (shapes of auto_allocation_api.py). */
import { vi } from "vitest";
import type { Proposal, Recommendations } from "./api";

export const proposal: Proposal = {
  applied: false,
  version: "v-1111",
  status: "OPTIMAL",
  solveMs: 1234.5,
  sessionsInScope: 3,
  assignments: [
    {
      sessionId: "s-1",
      teacherId: "t-ann",
      teacherName: "Ann Lee",
      date: "2026-03-02",
      startTime: "09:00:00",
      endTime: "12:00:00",
      unitCode: "ICTICT451",
      blockGroupCode: "BG-A",
      hours: 3,
    },
    {
      sessionId: "s-2",
      teacherId: "t-bob",
      teacherName: "Bob Tran",
      date: "2026-03-03",
      startTime: "13:00:00",
      endTime: "15:30:00",
      unitCode: "ICTPRG302",
      blockGroupCode: "BG-A",
      hours: 2.5,
    },
  ],
  unassignable: [
    {
      sessionId: "s-3",
      date: "2026-03-04",
      startTime: "18:00:00",
      endTime: "21:00:00",
      unitCode: "ICTSAS305",
      blockGroupCode: "BG-E",
      reason: "No teacher qualified for ICTSAS305 is available for evening sessions",
    },
  ],
  perTeacher: [
    { teacherId: "t-ann", teacherName: "Ann Lee", sessions: 1, hours: 3 },
    { teacherId: "t-bob", teacherName: "Bob Tran", sessions: 1, hours: 2.5 },
  ],
  before: { continuityPercent: 50, highestUtilisation: 40, meanUtilisation: 12.5, preferenceScore: 0 },
  after: { continuityPercent: 100, highestUtilisation: 55.5, meanUtilisation: 20.1, preferenceScore: 0 },
};

export const emptyProposal: Proposal = {
  ...proposal,
  sessionsInScope: 0,
  assignments: [],
  unassignable: [],
  perTeacher: [],
  before: { continuityPercent: 0, highestUtilisation: 0, meanUtilisation: 0, preferenceScore: 0 },
  after: { continuityPercent: 0, highestUtilisation: 0, meanUtilisation: 0, preferenceScore: 0 },
};

const rules = (broken: Partial<Record<string, string>> = {}) =>
  [
    ["qualified", "Qualified for ICTICT451"],
    ["active", "Active"],
    ["contract", "Within contract"],
    ["available", "Available for day sessions"],
    ["no_clash", "Free at this time"],
    ["capacity", "12 of 38 hours this week"],
  ].map(([rule, message]) => (rule in broken ? { rule, met: false, message: broken[rule] as string } : { rule, met: true, message }));

/** Deliberately not in rank order: the component sorts by rank. */
export const recommendations: Recommendations = {
  sessionId: "s-1",
  recommendations: [
    {
      teacherId: "t-cat",
      teacherName: "Cat Nguyen",
      rank: 3,
      eligible: false,
      rules: rules({ no_clash: "Already teaching BG-B 09:00-12:00", qualified: "Holds no qualification for ICTICT451" }),
      weekHours: 10,
      maxWeeklyHours: 38,
      utilisationAfter: 34.2,
      continuity: false,
      preferenceWeight: 0,
      preferenceReason: "",
    },
    {
      teacherId: "t-ann",
      teacherName: "Ann Lee",
      rank: 1,
      eligible: true,
      rules: rules(),
      weekHours: 9,
      maxWeeklyHours: 38,
      utilisationAfter: 31.6,
      continuity: true,
      preferenceWeight: 0,
      preferenceReason: "",
    },
    {
      teacherId: "t-bob",
      teacherName: "Bob Tran",
      rank: 2,
      eligible: true,
      rules: rules(),
      weekHours: 20,
      maxWeeklyHours: 38,
      utilisationAfter: 60.5,
      continuity: false,
      preferenceWeight: 0,
      preferenceReason: "",
    },
  ],
};

type Answer = { status?: number; body?: unknown; delayMs?: number };
type Handler = (url: string, init: RequestInit) => Answer | undefined;

/**
 * Stubs the global fetch; unknown calls answer 404. The returned vi.fn records each call as
 * (path with query, {method, headers, body text}), whether it came as (url, init) or as a Request
 * (the typed client sends Request objects with absolute URLs).
 */
export function stubFetch(handler: Handler) {
  const mock = vi.fn(async (url: string, init: RequestInit) => {
    const answer = handler(url, init) ?? { status: 404, body: { message: "Not found" } };
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (input instanceof Request) {
      const body = await input.text();
      const url = new URL(input.url);
      return mock(url.pathname + url.search, { method: input.method, headers: input.headers, body: body || undefined });
    }
    return mock(input instanceof URL ? input.toString() : input, init);
  });
  return mock;
}

export function bodyOf(init: RequestInit | undefined): Record<string, unknown> {
  return init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
}
