// Coordinator A bulk-allocates; coordinator B sees it live in the timetable and in the block
// group's History panel; A clicks Undo in the success toast and both screens return to the previous
// state without a reload. Then the History row's Undo (a redo of the undo) brings the allocation back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, apiCall, browserForFile, combo, openTimetable, scheduledGroupAndTeacher, screenshot, twoCoordinators } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let bHistory;
let group;
let sessions;

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  bHistory = await b.context.newPage();
  const made = await scheduledGroupAndTeacher(a.page, {
    tag: `UND${RUN}`,
    hours: 9,
    startDate: "2027-03-01",
    day: "Thursday",
    firstName: "Uma",
    lastName: `Undo${RUN}`,
  });
  group = made.group;
  sessions = made.sessions.filter((s) => s.status === "scheduled");
  assert.equal(sessions.length, 3);
});

const openGroup = (page) => openTimetable(page, group.code);
const teacherName = `Uma Undo${RUN}`;

/** Every session row of the group shows the teacher (true) or none shows it (false). */
async function allocatedEverywhere(page, allocated) {
  await page.waitForFunction(
    ([name, want, count]) => {
      const found = [...document.querySelectorAll('[data-testid="session-row"]')];
      if (found.length !== count) return false;
      return found.every((row) => row.textContent.includes(name) === want);
    },
    [teacherName, allocated, sessions.length],
    { timeout: 10000 },
  );
}

test("A's Undo in the toast takes a bulk allocation back on both screens, live; B's History shows both", async () => {
  await Promise.all([openGroup(a.page), openGroup(b.page)]);
  await bHistory.goto(`${BASE_URL}/block-groups/${group.id}`);
  const panel = bHistory.getByTestId("history-panel");
  await panel
    .getByText(/generated the schedule/)
    .first()
    .waitFor({ timeout: 15000 });
  await allocatedEverywhere(b.page, false);

  await a.page.getByRole("checkbox", { name: "Select all sessions" }).check();
  await a.page.getByRole("button", { name: "Allocate Teacher" }).click();
  const dialog = a.page.getByRole("dialog", { name: "Allocate Teacher" });
  await combo(dialog, "Teacher").click();
  await a.page.getByRole("option", { name: teacherName }).click();
  await dialog.getByRole("button", { name: "Allocate" }).click();
  await dialog.waitFor({ state: "hidden" });

  // B: live in the timetable and in the History panel of the block group, no reload.
  await allocatedEverywhere(b.page, true);
  await panel
    .getByText(/allocated .* to 3 sessions of /)
    .first()
    .waitFor({ timeout: 10000 });
  await screenshot(bHistory, "undo-history-allocated");

  // A: the success toast offers Undo; both screens go back.
  const toast = a.page.locator(".mantine-Notification-root").filter({ hasText: "Teacher allocated to 3 session(s)" });
  await toast.getByRole("button", { name: "Undo" }).click();
  await a.page.locator(".mantine-Notification-root").filter({ hasText: "Change undone" }).waitFor({ timeout: 10000 });
  await Promise.all([allocatedEverywhere(a.page, false), allocatedEverywhere(b.page, false)]);
  await panel
    .getByText(/undid: .*allocated .* to 3 sessions of /)
    .first()
    .waitFor({ timeout: 10000 });
  await screenshot(bHistory, "undo-history-undone");
  const stored = (await apiCall(b.page, "GET", `/api/timetables?blockGroupId=${group.id}`)).json;
  assert.ok(
    stored.every((s) => s.teacherId === null),
    "the server holds the previous state",
  );
});

test("the History row's Undo on the undo is a redo, live on the other screen", async () => {
  const panel = bHistory.getByTestId("history-panel");
  // B may not undo A's change (coordinators undo their own); A opens the group's page and redoes.
  const aHistory = await a.context.newPage();
  await aHistory.goto(`${BASE_URL}/block-groups/${group.id}`);
  const undoRow = aHistory
    .getByTestId("history-row")
    .filter({ hasText: /undid: / })
    .first();
  // Undoing an undo is a redo, and its button says so (ADR 0018).
  await undoRow.getByRole("button", { name: /^Redo/ }).click();
  await aHistory.locator(".mantine-Notification-root").filter({ hasText: "Change redone" }).waitFor({ timeout: 10000 });
  await allocatedEverywhere(b.page, true);
  await panel
    .getByText(/redid: .*allocated .* to 3 sessions of /)
    .first()
    .waitFor({ timeout: 10000 });
  assert.equal(
    await panel
      .getByTestId("history-row")
      .filter({ hasText: /redid: / })
      .getByRole("button", { name: /^Undo/ })
      .count(),
    0,
    "B sees no Undo on A's change",
  );
  await aHistory.close();
});
