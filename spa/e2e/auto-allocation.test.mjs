// Auto-allocation end to end from the browser context, against the running server with the demo
// data: a demo block group's unassigned sessions (the demo allocates teachers only up to a date) get a
// proposal, the proposal is applied with its version and assignments, the sessions now have exactly the
// proposed teachers, the same proposal cannot be applied twice (412), and one session's teachers are
// ranked with their rules. The dialog's screenshot waits for the timetables screen to mount the button.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEMO, apiCall, browserForFile, signedInPage } from "./lib.mjs";

const RULES = ["qualified", "active", "contract", "not_on_leave", "available", "campus", "limits", "no_clash", "capacity"];

let page;
let scope; // { blockGroupId, start, end }
let inScope; // the unassigned, non-cancelled sessions of the scope before allocation
let proposal;
let applied;

browserForFile(async (browser) => {
  ({ page } = await signedInPage(browser, DEMO.admin));
});

const addDays = (iso, n) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const open = (s) => s.teacherId === null && s.status !== "cancelled";

/** Applies the proposal to the scope: its version, and each of its assignments (session and teacher). */
function applyProposal() {
  return apiCall(page, "POST", "/api/timetables/auto-allocate", {
    ...scope,
    apply: true,
    version: proposal.version,
    assignments: proposal.assignments.map((a) => ({ sessionId: a.sessionId, teacherId: a.teacherId })),
  });
}

async function sessionsOf(blockGroupId) {
  const r = await apiCall(page, "GET", `/api/timetables?blockGroupId=${blockGroupId}`);
  assert.equal(r.status, 200, r.text);
  return r.json;
}

test("a demo block group with unassigned sessions gets a proposal that writes nothing", async () => {
  const groups = await apiCall(page, "GET", "/api/block-groups");
  assert.equal(groups.status, 200, groups.text);
  // The group with the most unassigned sessions; the scope is its first two weeks of them.
  let best = null;
  for (const g of groups.json) {
    const unassigned = (await sessionsOf(g.id)).filter(open);
    if (!best || unassigned.length > best.unassigned.length) best = { group: g, unassigned };
  }
  assert.ok(best && best.unassigned.length > 0, "the demo data has unassigned sessions");
  const start = best.unassigned.map((s) => s.actualDate).sort()[0];
  scope = { blockGroupId: best.group.id, start, end: addDays(start, 13) };
  inScope = best.unassigned.filter((s) => s.actualDate >= scope.start && s.actualDate <= scope.end);

  const r = await apiCall(page, "POST", "/api/timetables/auto-allocate", { ...scope, apply: false });
  assert.equal(r.status, 200, r.text);
  proposal = r.json;
  assert.equal(proposal.applied, false);
  assert.match(proposal.version, /^[0-9a-f]{32}$/);
  assert.ok(["OPTIMAL", "FEASIBLE"].includes(proposal.status), proposal.status);
  assert.equal(typeof proposal.solveMs, "number");
  assert.equal(proposal.sessionsInScope, inScope.length);
  assert.equal(proposal.assignments.length + proposal.unassignable.length, inScope.length);
  assert.ok(proposal.assignments.length > 0, "some sessions can be allocated");
  const ids = new Set(inScope.map((s) => s.id));
  for (const a of proposal.assignments) {
    assert.ok(ids.has(a.sessionId), `assignment ${a.sessionId} is in scope`);
    assert.ok(a.teacherId && a.teacherName, "an assignment names its teacher");
  }
  for (const u of proposal.unassignable) assert.ok(u.reason.length > 0, "an unassignable session says why");
  const perTeacher = proposal.perTeacher.reduce((n, t) => n + t.sessions, 0);
  assert.equal(perTeacher, proposal.assignments.length);
  for (const figures of [proposal.before, proposal.after]) {
    for (const key of ["continuityPercent", "highestUtilisation", "meanUtilisation"]) {
      assert.ok(figures[key] >= 0 && figures[key] <= 100, `${key} = ${figures[key]}`);
    }
  }

  // A proposal writes nothing.
  const still = (await sessionsOf(scope.blockGroupId)).filter((s) => ids.has(s.id));
  assert.ok(
    still.every((s) => s.teacherId === null),
    "no session was allocated by a proposal",
  );
});

test("applying the proposal gives exactly those sessions their proposed teachers", async () => {
  const r = await applyProposal();
  assert.equal(r.status, 200, r.text);
  applied = r.json;
  assert.equal(applied.applied, true);
  assert.equal(applied.assignments.length, proposal.assignments.length);

  const byId = new Map((await sessionsOf(scope.blockGroupId)).map((s) => [s.id, s]));
  for (const a of proposal.assignments) {
    const s = byId.get(a.sessionId);
    assert.equal(s.teacherId, a.teacherId, `session ${a.sessionId} has its proposed teacher`);
    assert.equal(s.teacher?.id, a.teacherId);
  }
  for (const u of proposal.unassignable) assert.equal(byId.get(u.sessionId).teacherId, null, "an unassignable session stays open");
  // No hard conflict among the sessions just allocated.
  const conflicts = await apiCall(page, "GET", `/api/timetables/conflicts?blockGroupId=${scope.blockGroupId}&start=${scope.start}&end=${scope.end}`);
  assert.equal(conflicts.status, 200, conflicts.text);
  const allocated = new Set(proposal.assignments.map((a) => a.sessionId));
  const hard = conflicts.json.filter(
    (c) => ["teacher_double_booked", "teacher_over_capacity"].includes(c.type) && c.sessionIds.some((id) => allocated.has(id)),
  );
  assert.deepEqual(hard, []);
});

test("the same proposal applied again is refused as stale and a new one has nothing left to assign", async () => {
  const again = await applyProposal();
  assert.equal(again.status, 412, again.text);
  assert.equal(again.json.type, "stale");

  const fresh = await apiCall(page, "POST", "/api/timetables/auto-allocate", { ...scope, apply: false });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.json.sessionsInScope, proposal.unassignable.length);
  assert.equal(fresh.json.assignments.length, 0);
});

test("recommendations rank every teacher for a session with the rules met or broken", async () => {
  const chosen = proposal.assignments[0];
  const r = await apiCall(page, "GET", `/api/timetables/${chosen.sessionId}/recommendations`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.sessionId, chosen.sessionId);
  const recs = r.json.recommendations;
  const teachers = await apiCall(page, "GET", "/api/teachers");
  // /api/teachers lists active teachers; the ranking has every teacher, inactive ones breaking "active".
  const active = new Set(teachers.json.map((t) => t.id));
  const ranked = new Set(recs.map((x) => x.teacherId));
  assert.ok(
    [...active].every((id) => ranked.has(id)),
    "every active teacher is ranked",
  );
  for (const x of recs.filter((x) => !active.has(x.teacherId))) {
    assert.equal(x.rules.find((rule) => rule.rule === "active").met, false, `${x.teacherName} is listed as inactive`);
  }
  assert.deepEqual(
    recs.map((x) => x.rank),
    recs.map((_, i) => i + 1),
  );
  const firstIneligible = recs.findIndex((x) => !x.eligible);
  if (firstIneligible >= 0)
    assert.ok(
      recs.slice(firstIneligible).every((x) => !x.eligible),
      "eligible teachers come first",
    );
  for (const x of recs) {
    assert.deepEqual(
      x.rules.map((rule) => rule.rule),
      RULES,
    );
    assert.equal(
      x.eligible,
      x.rules.every((rule) => rule.met),
    );
    for (const rule of x.rules) assert.ok(rule.message.length > 0);
  }
  // The teacher the solver chose meets every rule for the session it now teaches, and teaches the unit to the group.
  const mine = recs.find((x) => x.teacherId === chosen.teacherId);
  assert.ok(mine, "the allocated teacher is ranked");
  assert.equal(mine.eligible, true, JSON.stringify(mine.rules));
  assert.equal(mine.continuity, true);
  assert.equal(recs[0].eligible, true);

  const missing = await apiCall(page, "GET", "/api/timetables/00000000-0000-4000-8000-000000000000/recommendations");
  assert.equal(missing.status, 404);
});
