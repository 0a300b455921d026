// Re-planning around late changes (ADR 0014; first slice): a coordinator records a teacher's leave on the teacher page; the sessions the
// teacher teaches in it show the hard "Teacher on leave" conflict in another coordinator's open timetable,
// live, and lose it when the leave is deleted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, apiCall, browserForFile, openTimetable, scheduledGroupAndTeacher, screenshot, seriousA11yViolations, twoCoordinators } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let made;

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  made = await scheduledGroupAndTeacher(a.page, {
    tag: `LV${RUN}`,
    hours: 9,
    startDate: "2027-05-03",
    day: "Tuesday",
    firstName: "Lena",
    lastName: `Leave${RUN}`,
  });
  assert.equal(made.sessions.length, 3);
  const qualified = await apiCall(a.page, "POST", "/api/teacher-units", { teacherId: made.teacher.id, unitId: made.unit.id });
  assert.equal(qualified.status, 201, qualified.text);
  const allocated = await apiCall(a.page, "PUT", "/api/timetables/bulk-allocate", {
    sessionIds: made.sessions.map((s) => s.id),
    teacherId: made.teacher.id,
  });
  assert.equal(allocated.status, 200, allocated.text);
});

/** How many of the group's rows show the leave conflict, once `count` of them do. */
async function rowsOnLeave(page, count) {
  await page.waitForFunction(
    (want) => [...document.querySelectorAll('[data-testid="session-row"]')].filter((r) => r.textContent.includes("Teacher on leave")).length === want,
    count,
    { timeout: 10000 },
  );
}

test("leave added on the teacher page shows as a conflict in another coordinator's timetable, live", async () => {
  const first = made.sessions[0];
  await openTimetable(b.page, made.group.code);
  await rowsOnLeave(b.page, 0);

  await a.page.goto(`${BASE_URL}/teachers/${made.teacher.id}`);
  const card = a.page.getByTestId("teacher-leave");
  await card.getByText("No leave recorded.").waitFor();
  await card.getByRole("button", { name: "Add Leave" }).click();
  const dialog = a.page.getByRole("dialog", { name: "Add Leave" });
  await dialog.getByLabel("Start Date").fill(first.actualDate);
  await dialog.getByLabel("End Date").fill(first.actualDate);
  await dialog.getByLabel("Reason").fill("Conference");
  assert.deepEqual(await seriousA11yViolations(a.page), []);
  await dialog.getByRole("button", { name: "Add Leave" }).click();
  await dialog.waitFor({ state: "hidden" });
  // The impact of the leave (GET /api/replan/impact) is said at once.
  await a.page.getByText("1 session of 1 block group falls in this leave", { exact: false }).waitFor();
  await card.getByRole("cell", { name: "Conference" }).waitFor();
  await card.getByRole("cell", { name: "All day" }).waitFor();

  // B's open timetable: exactly the session on that day carries the conflict, without a reload.
  await rowsOnLeave(b.page, 1);
  const flagged = b.page.getByTestId("session-row").filter({ hasText: "Teacher on leave" });
  assert.equal(await flagged.count(), 1);
  await screenshot(b.page, "leave-conflict-live");

  // Deleting the leave clears it on B's screen too.
  await card.getByRole("button", { name: /^Delete leave from/ }).click();
  await a.page.getByRole("dialog", { name: "Delete Leave" }).getByRole("button", { name: "Delete" }).click();
  await card.getByText("No leave recorded.").waitFor();
  await rowsOnLeave(b.page, 0);
});
