// Re-planning around late changes and re-planning a coordinator can trust (ADR 0015): a coordinator adds a one-day holiday on a full-time group's teaching day, reviews the
// re-plan (a summary, make-up or shift with their figures, the affected weeks), picks make-up and applies
// it; another coordinator's open timetable shows the session on its make-up day without a reload. A
// campus closure day gets its impact and the same review from the holidays page.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  apiCall,
  BASE_URL,
  browserForFile,
  chooseOption,
  openTimetable,
  scheduledGroupAndTeacher,
  screenshot,
  seriousA11yViolations,
  twoCoordinators,
} from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let made;
let campus;

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  const campuses = await apiCall(a.page, "GET", "/api/campuses");
  assert.equal(campuses.status, 200, campuses.text);
  campus = campuses.json[0];
  // Full time, Monday to Wednesday mornings from Monday 7 August 2028: six classes over two weeks.
  made = await scheduledGroupAndTeacher(a.page, {
    tag: `RP${RUN}`,
    hours: 18,
    startDate: "2028-08-07",
    day: "Monday, Tuesday, Wednesday",
    firstName: "Remy",
    lastName: `Replan${RUN}`,
    campusId: campus.id,
  });
  assert.deepEqual(
    made.sessions.map((s) => s.actualDate),
    ["2028-08-07", "2028-08-08", "2028-08-09", "2028-08-14", "2028-08-15", "2028-08-16"],
  );
});

const dates = (page) => page.getByTestId("session-row").allTextContents();

test("a one-day holiday on a full-time group: both options with figures, make-up picked and applied, the other screen follows live", async () => {
  await openTimetable(b.page, made.group.code);
  assert.ok((await dates(b.page)).some((t) => t.includes("15/08/2028")));

  await a.page.goto(`${BASE_URL}/holidays`);
  await a.page.getByRole("button", { name: "Add Holiday" }).click();
  const form = a.page.getByRole("dialog", { name: "Add New Holiday" });
  await form.getByLabel("Name").fill(`Snap closure ${RUN}`);
  await form.getByLabel("Start Date").fill("2028-08-15");
  await form.getByLabel("End Date").fill("2028-08-15");
  await form.getByRole("button", { name: "Create Holiday" }).click();
  await form.waitFor({ state: "hidden" });

  await a.page.getByText(/session of 1 block group falls on this holiday|sessions of \d+ block groups? fall on this holiday/).waitFor();
  await a.page.getByRole("button", { name: "Review re-plan" }).click();
  const review = a.page.getByRole("dialog", { name: "Review re-plan" });

  // The summary first: what is hit, and what each option does.
  const summary = review.getByTestId("replan-summary");
  await summary.waitFor();
  const said = await summary.textContent();
  assert.match(said, /^1 session of 1 block group falls on Tue 15\/08\/2028\. /);
  assert.match(said, /Make-up: 1 session moves, end dates unchanged\./);
  assert.match(said, /Shift: 1 session moves, 3 hours to another week, end dates unchanged\./);

  // Both options with their figures; make-up (same week) is preselected over shift (next week).
  const makeUp = review.getByRole("radio", { name: "Make-up" });
  const shift = review.getByRole("radio", { name: "Shift" });
  assert.equal(await makeUp.isChecked(), true);
  assert.equal(
    await review.getByTestId("replan-option-makeUp").textContent(),
    "1 session moved · 0 hours to another week · end dates unchanged · 0 sessions with another teacher",
  );
  assert.equal(
    await review.getByTestId("replan-option-shift").textContent(),
    "1 session moved · 3 hours to another week · end dates unchanged · 0 sessions with another teacher",
  );
  const row = () => review.getByRole("tabpanel", { name: "By block group" }).getByTestId("replan-change").filter({ hasText: made.group.code });
  await shift.check();
  assert.match(await row().textContent(), /Mon 21\/08\/2028 09:00–12:00/); // shift: the next free Monday
  await makeUp.check();
  const text = await row().textContent();
  assert.match(text, /Tue 15\/08\/2028 09:00–12:00/);
  assert.match(text, /Thu 17\/08\/2028 09:00–12:00/); // make-up: the nearest free weekday of that week
  assert.match(text, new RegExp(`Falls on Snap closure ${RUN}`));
  // The affected week on the board's calendar: the moved session highlighted where it arrives (Thursday),
  // outlined where it leaves (Tuesday).
  const week = review.getByTestId("replan-week");
  assert.equal(await week.count(), 1);
  const ofGroup = (selector) => week.locator(selector).filter({ hasText: made.group.code });
  assert.equal(await ofGroup(".fc-event.bp-moved").count(), 1);
  assert.match(await ofGroup('td.fc-timegrid-col[data-date="2028-08-17"] .fc-event.bp-moved').textContent(), /09:00/);
  assert.equal(await ofGroup('td.fc-timegrid-col[data-date="2028-08-15"] .fc-event.bp-before').count(), 1);
  // The group's other classes of that week (Monday and Wednesday) are shown as they stay.
  await ofGroup(".fc-event.bp-session:not(.bp-moved)").nth(1).waitFor();
  assert.equal(await ofGroup(".fc-event.bp-session:not(.bp-moved)").count(), 2);
  assert.equal(await ofGroup('td.fc-timegrid-col[data-date="2028-08-14"] .fc-event.bp-session:not(.bp-moved)').count(), 1);
  assert.equal(await ofGroup('td.fc-timegrid-col[data-date="2028-08-16"] .fc-event.bp-session:not(.bp-moved)').count(), 1);
  assert.deepEqual(await seriousA11yViolations(a.page), []);
  await screenshot(a.page, "replan-review");

  await review.getByRole("button", { name: "Apply re-plan" }).click();
  await review.waitFor({ state: "hidden" });
  await a.page.getByText("Re-plan applied").waitFor();
  await a.page.getByText(/1 session updated \(make-up\)/).waitFor();

  // B's timetable, untouched: the session is now on Thursday the 17th, none on the 15th.
  await b.page.waitForFunction(
    (code) => {
      const rows = [...document.querySelectorAll('[data-testid="session-row"]')].map((r) => r.textContent).filter((t) => t.includes(code));
      return rows.some((t) => t.includes("17/08/2028")) && !rows.some((t) => t.includes("15/08/2028"));
    },
    made.group.code,
    { timeout: 10000 },
  );
  const shown = (await dates(b.page)).filter((t) => t.includes(made.group.code));
  assert.equal(shown.length, 6);
});

test("a campus closure day: its impact on the holidays page, then the same review, applied", async () => {
  await a.page.goto(`${BASE_URL}/holidays`);
  await a.page.getByRole("button", { name: "Campus closure" }).click();
  const dialog = a.page.getByRole("dialog", { name: "Campus closure" });
  await chooseOption(dialog, "Campus", campus.name);
  await dialog.getByLabel("Closure day").fill("2028-08-09");
  // Wednesday 9 August 2028: the group's class that day is hit.
  await dialog
    .getByTestId("closure-impact")
    .filter({ hasText: /session of 1 block group falls on this closure|sessions of \d+ block groups? fall on this closure/ })
    .waitFor();
  await dialog.getByRole("button", { name: "Review re-plan" }).click();
  const review = a.page.getByRole("dialog", { name: "Review re-plan" });
  await review
    .getByTestId("replan-summary")
    .filter({ hasText: /fall(s)? on Wed 09\/08\/2028\./ })
    .waitFor();
  const row = review.getByRole("tabpanel", { name: "By block group" }).getByTestId("replan-change").filter({ hasText: made.group.code });
  assert.match(await row.textContent(), new RegExp(`Wed 09/08/2028 09:00–12:00.*Falls on Closure of ${campus.name}`));
  await review.getByRole("button", { name: "Apply re-plan" }).click();
  await review.waitFor({ state: "hidden" });
  const sessions = await apiCall(a.page, "GET", `/api/timetables?blockGroupId=${made.group.id}&hidePast=true`);
  const days = sessions.json.map((s) => s.actualDate);
  assert.ok(!days.includes("2028-08-09"), days.join(" "));
  assert.equal(days.length, 6);
});
