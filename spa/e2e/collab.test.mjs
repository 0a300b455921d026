// Two coordinators of one organization in two browser contexts: a change by one shows up in the other's
// open timetable and dashboard without a reload (the realtime socket), and the same edit made by both
// shows the 412 "changed by someone else" message to the second, who keeps the typing, sees the other
// change next to theirs and keeps their own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, apiCall, browserForFile, combo, openTimetable, scheduledGroupAndTeacher, screenshot, screenshotAndAudit, twoCoordinators } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let target; // a future, unallocated, scheduled session of a demo group

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  // A fresh scheduled group of our own, so its first session is at the top of its timetable.
  const made = await scheduledGroupAndTeacher(a.page, {
    tag: `COL${RUN}`,
    hours: 12,
    startDate: "2027-02-01",
    day: "Tuesday",
    firstName: "Casey",
    lastName: `Collab${RUN}`,
  });
  target = made.sessions.find((s) => s.status === "scheduled");
  assert.ok(target, "a scheduled session of the new group");
});

const openGroup = (page) => openTimetable(page, target.blockGroup.code);
const rowOf = (page) =>
  page
    .getByTestId("session-row")
    .filter({ has: page.getByRole("checkbox", { name: `Select session ${target.unit.code} ${target.actualDate} ${target.startTime.slice(0, 5)}` }) });

test("an allocation by one coordinator appears in the other's open timetable without reload", async () => {
  await Promise.all([openGroup(a.page), openGroup(b.page)]);
  await rowOf(b.page).waitFor();
  assert.match(await rowOf(b.page).innerText(), /Unassigned/);

  await rowOf(a.page).getByRole("checkbox").check();
  await a.page.getByRole("button", { name: "Allocate Teacher" }).click();
  const dialog = a.page.getByRole("dialog", { name: "Allocate Teacher" });
  await combo(dialog, "Teacher").click();
  await a.page.getByRole("option", { name: `Casey Collab${RUN}` }).click();
  await dialog.getByRole("button", { name: "Allocate" }).click();
  await dialog.waitFor({ state: "hidden" });

  // No reload on B: the socket's change event refetches its list.
  await rowOf(b.page)
    .filter({ hasText: `Casey Collab${RUN}` })
    .waitFor({ timeout: 10000 });
  await screenshotAndAudit(b.page, "collab-timetable-live");
});

test("a course created by one coordinator updates the other's open dashboard without reload", async () => {
  await b.page.goto(`${BASE_URL}/`);
  const stat = b.page.getByTestId("stat-Active Courses");
  await stat.waitFor();
  await b.page.waitForFunction(() => !document.querySelector(".mantine-Skeleton-root"), null, { timeout: 10000 }).catch(() => {});
  const before = Number(await stat.innerText());

  await a.page.goto(`${BASE_URL}/courses`);
  await a.page.getByRole("button", { name: "Add Course" }).click();
  const form = a.page.getByRole("dialog", { name: "Create New Course" });
  await form.getByLabel("Code").fill(`COL${RUN}`);
  await form.getByLabel("Name").fill(`Collaboration course ${RUN}`);
  await form.getByRole("button", { name: "Create Course" }).click();
  await form.waitFor({ state: "hidden" });

  await b.page.waitForFunction(
    ([expected]) => document.querySelector('[data-testid="stat-Active Courses"]')?.textContent?.trim() === String(expected),
    [before + 1],
    { timeout: 10000 },
  );
  await screenshot(b.page, "collab-dashboard-live");
});

test("the same edit made by both: the second sees that someone else changed it, with the fresh record", async () => {
  await Promise.all([openGroup(a.page), openGroup(b.page)]);
  // Both open the same session's edit dialog.
  for (const side of [a, b]) {
    await rowOf(side.page)
      .getByRole("button", { name: /^Edit session/ })
      .click();
    await side.page.getByRole("dialog", { name: "Edit Timetable Entry" }).waitFor();
  }
  const dialogA = a.page.getByRole("dialog", { name: "Edit Timetable Entry" });
  const dialogB = b.page.getByRole("dialog", { name: "Edit Timetable Entry" });
  await dialogA.getByLabel("Room", { exact: true }).fill(`A-${RUN}`);
  await dialogA.getByRole("button", { name: "Update Entry" }).click();
  await dialogA.waitFor({ state: "hidden" });
  // Let A's change reach B's open timetable first (the live update that used to reload B's open form and
  // make this test pass or fail by timing): B's form must keep the version B opened.
  await rowOf(b.page).getByText(`A-${RUN}`).waitFor({ timeout: 10000 });
  assert.notEqual(await dialogB.getByLabel("Room", { exact: true }).inputValue(), `A-${RUN}`);

  await dialogB.getByLabel("Room", { exact: true }).fill(`B-${RUN}`);
  await dialogB.getByRole("button", { name: "Update Entry" }).click();
  const stale = dialogB.getByTestId("stale-alert");
  await stale.waitFor();
  assert.match(await stale.innerText(), /Someone else changed this record/);
  // B's typing is kept and the clash is shown: theirs (A's room) next to B's (ADR 0017).
  assert.equal(await dialogB.getByLabel("Room", { exact: true }).inputValue(), `B-${RUN}`);
  const clash = stale.getByTestId("stale-fields").locator('tr[data-field="room"] td');
  assert.deepEqual(await clash.allInnerTexts(), ["Room", `A-${RUN}`, `B-${RUN}`]);
  // Nothing of B's was written.
  const fresh = (await apiCall(b.page, "GET", `/api/timetables/${target.id}`)).json;
  assert.equal(fresh.room, `A-${RUN}`);
  await screenshotAndAudit(b.page, "collab-stale-412");

  // "Keep mine" saves B's version with the fresh If-Match.
  await stale.getByRole("button", { name: "Keep mine" }).click();
  await dialogB.waitFor({ state: "hidden" });
  assert.equal((await apiCall(b.page, "GET", `/api/timetables/${target.id}`)).json.room, `B-${RUN}`);
});
