// A schedule generated or cleared by one coordinator, seen by another's open screens (ADR 0033): the block
// group list shows the group's new count, the group's open timetable shows its sessions, and a timetable
// of a group the schedule does not touch (other dates, no shared room or teacher) asks the server nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, apiCall, browserForFile, openTimetable, scheduledGroupAndTeacher, twoCoordinators } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let mine; // the group a generates: Thursdays from March 2027, no room
let other; // a group b watches: Tuesdays from February 2027

const TEMPLATE = { sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }], startDate: "2027-03-04", room: "" };

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  other = await scheduledGroupAndTeacher(a.page, {
    tag: `SLO${RUN}`,
    hours: 12,
    startDate: "2027-02-02",
    day: "Tuesday",
    firstName: "Olive",
    lastName: `Other${RUN}`,
  });
  mine = await scheduledGroupAndTeacher(a.page, {
    tag: `SLM${RUN}`,
    hours: 12,
    startDate: "2027-03-04",
    day: "Thursday",
    firstName: "Mina",
    lastName: `Mine${RUN}`,
  });
  const cleared = await apiCall(a.page, "DELETE", `/api/block-groups/${mine.group.id}/schedule`);
  assert.equal(cleared.status, 200, cleared.text);
});

/** The API requests a page makes from now on, as `METHOD path?query`. */
function recordRequests(page) {
  const seen = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) seen.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

test("a generated schedule shows on the other coordinator's screens, and only where it touches them", async () => {
  await a.page.goto(`${BASE_URL}/block-groups`);
  const card = a.page.getByTestId("block-group-card").filter({ hasText: mine.group.code });
  await card.getByText("0 sessions").waitFor();
  await openTimetable(b.page, other.group.code);
  const otherRow = b.page.getByTestId("session-row").first();
  await b.page.waitForLoadState("networkidle");
  const aSaw = recordRequests(a.page);
  const bSaw = recordRequests(b.page);

  const generated = await apiCall(a.page, "POST", `/api/block-groups/${mine.group.id}/schedule`, TEMPLATE);
  assert.equal(generated.status, 200, generated.text);
  const created = generated.json.sessionsCreated;
  assert.ok(created > 0);
  // A's list shows the group's count: the list, which shows the group, read again once.
  await card.getByText(`${created} sessions`).waitFor({ timeout: 10000 });
  assert.equal(aSaw.filter((r) => r.startsWith("GET /api/block-groups")).length, 1, aSaw.join("\n"));

  // What the generation's event set off on B: an aggregate's refetch waits up to SPREAD_MS (500 ms) after
  // the event, so that window is waited out before the later change below, whose own event legitimately
  // refetches B's conflict list (the row it writes is B's group's): requests before that change are the
  // generation's alone.
  await b.page.waitForTimeout(1500);
  const beforeLater = bSaw.length;
  // A later change B shows (a room on B's first row): once B shows it, B has handled the generation's
  // event before it (events are applied in seq order).
  const first = other.sessions[0];
  const row = (await apiCall(b.page, "GET", `/api/timetables/${first.id}`)).json;
  const edit = await apiCall(b.page, "PUT", `/api/timetables/${first.id}`, { ...row, room: `SL-${RUN}` });
  assert.equal(edit.status, 200, edit.text);
  await otherRow.getByText(`SL-${RUN}`).waitFor({ timeout: 10000 });
  const timetableReads = bSaw.slice(0, beforeLater).filter((r) => r.startsWith("GET /api/timetables"));
  assert.deepEqual(timetableReads, [], "B's timetable of another group, other dates and no shared room: no request");

  // The group's own timetable, open in B, shows the cleared schedule go and the regenerated one come.
  await openTimetable(b.page, mine.group.code);
  const rows = b.page.getByTestId("session-row");
  assert.equal(await rows.count(), created);
  const cleared = await apiCall(a.page, "DELETE", `/api/block-groups/${mine.group.id}/schedule`);
  assert.equal(cleared.status, 200, cleared.text);
  await b.page.getByTestId("session-row").first().waitFor({ state: "detached", timeout: 10000 });
  const again = await apiCall(a.page, "POST", `/api/block-groups/${mine.group.id}/schedule`, TEMPLATE);
  assert.equal(again.status, 200, again.text);
  await b.page.waitForFunction((n) => document.querySelectorAll('[data-testid="session-row"]').length === n, created, { timeout: 10000 });
  await card.getByText(`${created} sessions`).waitFor({ timeout: 10000 });
});
