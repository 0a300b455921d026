// The delivery screens end to end in real Chromium against the running server with the demo data:
// course, units, a study plan with hours (mismatch warnings), a block group with the plan, the generated
// schedule (a holiday shows as Holiday/Term Break), teacher allocation (a clash is refused with its
// reason), the CSV export's content and the reports. Every screen is screenshotted and checked with axe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BASE_URL, DEMO, apiCall, browserForFile, chooseOption, filterTimetable, screenshot, screenshotAndAudit, signedInPage } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
const COURSE = { code: `E2E${RUN}`, name: `Certificate IV in E2E Testing ${RUN}` };
const UNIT_A = { code: `E2EA${RUN}`, name: `Test automation ${RUN}`, hours: "20" };
const UNIT_B = { code: `E2EB${RUN}`, name: `Accessibility checks ${RUN}`, hours: "10" };
const PLAN = `E2E Plan ${RUN}`;
const GROUP = { code: `E2E-BG-${RUN}`, name: `E2E Cohort ${RUN}` };
const CLASH_GROUP = `E2E-CL-${RUN}`;
// Mondays and Fridays from Monday 14 Dec 2026: the Victorian summer school holidays start on 19 Dec.
const START = "2026-12-14";

let page;
browserForFile(async (browser) => {
  ({ page } = await signedInPage(browser, DEMO.coordinator));
});

async function toast(text) {
  await page.getByText(text).first().waitFor({ timeout: 15000 });
}

test("courses: create one, see the card and the detail", async () => {
  await page.goto(`${BASE_URL}/courses`);
  await page.getByRole("main").getByRole("heading", { name: "Courses", exact: true }).waitFor(); // the page's own, not the header's title
  await page.getByRole("button", { name: "Add Course" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Course" });
  await dialog.getByRole("button", { name: "Create Course" }).click();
  await dialog.getByText("Code is required").waitFor();
  await dialog.getByLabel("Code").fill(COURSE.code);
  await dialog.getByLabel("Name").fill(COURSE.name);
  await chooseOption(dialog, "Level", "Certificate IV");
  await dialog.getByRole("button", { name: "Create Course" }).click();
  await toast("Course created successfully");
  await page.getByRole("link", { name: COURSE.name }).waitFor();
  await screenshotAndAudit(page, "delivery-courses");
  await page.getByRole("link", { name: COURSE.name }).click();
  await page.getByRole("heading", { name: `Course: ${COURSE.name}` }).waitFor();
  await screenshotAndAudit(page, "delivery-course-detail");
});

test("units: create two units", async () => {
  await page.goto(`${BASE_URL}/units`);
  await page.getByRole("main").getByRole("heading", { name: "Units of Competency" }).waitFor(); // the page's own, not the header's title
  for (const unit of [UNIT_A, UNIT_B]) {
    await page.getByRole("button", { name: "Add Unit" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Unit of Competency" });
    await dialog.getByLabel("Code").fill(unit.code);
    await dialog.getByLabel("Name").fill(unit.name);
    await dialog.getByLabel("Nominal Hours").fill("0");
    await dialog.getByRole("button", { name: "Create Unit" }).click();
    await dialog.getByText("Nominal hours must be at least 1").waitFor();
    await dialog.getByLabel("Nominal Hours").fill(unit.hours);
    await dialog.getByRole("button", { name: "Create Unit" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("link", { name: unit.name }).waitFor();
  }
  await screenshotAndAudit(page, "delivery-units");
  await page.getByRole("link", { name: UNIT_A.name }).click();
  await page.getByRole("heading", { name: `Unit: ${UNIT_A.name}` }).waitFor();
  await screenshotAndAudit(page, "delivery-unit-detail");
});

test("study plan: units with hours show the balance and Hour Mismatch warnings", async () => {
  await page.goto(`${BASE_URL}/study-plans`);
  await page.getByRole("main").getByRole("heading", { name: "Study Plans" }).waitFor(); // the page's own, not the header's title
  await page.getByRole("button", { name: "Add Study Plan" }).click();
  const form = page.getByRole("dialog", { name: "Create Study Plan" });
  await form.getByLabel("Name").fill(PLAN);
  await form.getByRole("button", { name: "Create Study Plan" }).click();
  await form.getByText("Total nominal hours must be at least 1").waitFor();
  await form.getByLabel("Total Nominal Hours").fill("30");
  await form.getByRole("button", { name: "Create Study Plan" }).click();
  await form.waitFor({ state: "hidden" });
  const card = page.getByTestId("study-plan-card").filter({ hasText: PLAN });
  await card.getByRole("button", { name: "Units" }).click();
  const dialog = page.getByRole("dialog", { name: `Manage Units - ${PLAN}` });
  await dialog.getByRole("button", { name: "Add First Unit" }).click();
  await chooseOption(dialog, "Unit", UNIT_A.code);
  await dialog.getByLabel("Face to Face").fill("12");
  // 20 nominal - 12 actual = 8 balance hours, none distributed yet: the non-blocking warning.
  await dialog.getByText("Balance distribution mismatch: 0 hours distributed, but 8 hours available").waitFor();
  await screenshot(page, "delivery-plan-unit-form");
  await dialog.getByRole("button", { name: "Add Unit" }).click();
  await dialog.getByTestId("plan-unit-row").filter({ hasText: UNIT_A.code }).waitFor();
  await dialog.getByTestId("hour-mismatch").waitFor();
  // The second unit's hours add up to its nominal hours: no mismatch on it; offered an insert position.
  await dialog.getByRole("button", { name: "Add Unit" }).click();
  await chooseOption(dialog, "Unit", UNIT_B.code);
  await dialog.getByLabel("Insert Position").waitFor();
  await dialog.getByLabel("Face to Face").fill("6");
  await dialog.getByLabel("Structured Learning").fill("4");
  assert.equal(await dialog.getByTestId("balance-warning").count(), 0);
  await dialog.getByRole("button", { name: "Add Unit" }).click();
  await dialog.getByTestId("plan-unit-row").filter({ hasText: UNIT_B.code }).waitFor();
  assert.equal(await dialog.getByTestId("hour-mismatch").count(), 1);
  await dialog.getByText("Efficiency Rate: 60.0%").waitFor(); // 18 actual / 30 nominal
  await screenshotAndAudit(page, "delivery-manage-units");
  await dialog
    .getByRole("button", { name: "Close" })
    .click()
    .catch(() => page.keyboard.press("Escape"));
  await card.getByTestId("efficiency").filter({ hasText: "60%" }).waitFor();
  await screenshotAndAudit(page, "delivery-study-plans");
});

test("block group: create, assign the plan, generate the schedule", async () => {
  await page.goto(`${BASE_URL}/block-groups`);
  await page.getByRole("main").getByRole("heading", { name: "Block Groups" }).waitFor(); // the page's own, not the header's title
  await page.getByRole("button", { name: "Add Block Group" }).click();
  const form = page.getByRole("dialog", { name: "Create Block Group" });
  await form.getByLabel("Code").fill(GROUP.code);
  await form.getByLabel("Name").fill(GROUP.name);
  await form.getByLabel("Cohort Size").fill("0");
  await form.getByRole("button", { name: "Create Block Group" }).click();
  await form.getByText("Cohort size must be at least 1").waitFor();
  await form.getByText("Start date is required").waitFor();
  await form.getByLabel("Cohort Size").fill("18");
  await chooseOption(form, "Course", COURSE.code);
  await form.getByLabel("Start Date").fill(START);
  await form.getByLabel("Preferred Days").fill("Monday, Friday");
  await form.getByRole("button", { name: "Create Block Group" }).click();
  await form.waitFor({ state: "hidden" });
  const card = page.getByTestId("block-group-card").filter({ hasText: GROUP.code });
  await card.waitFor();
  await screenshotAndAudit(page, "delivery-block-groups");

  await card.getByRole("link", { name: "View" }).click();
  await page.getByRole("heading", { name: GROUP.name }).waitFor();
  await page.getByText("Not set (auto-calculated when scheduled)").waitFor();
  await page.getByRole("button", { name: "Assign Study Plan" }).click();
  const assign = page.getByRole("dialog", { name: "Assign Study Plan" });
  await chooseOption(assign, "Study Plan", PLAN);
  await assign.getByRole("button", { name: "Assign" }).click();
  await page.getByTestId("assigned-plan").filter({ hasText: PLAN }).waitFor();

  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  const schedule = page.getByRole("dialog", { name: `Schedule Block Group - ${GROUP.code}` });
  await schedule.getByText("Total Facilitated Hours").waitFor();
  await schedule.getByLabel("Start Date").waitFor();
  assert.equal(await schedule.getByLabel("Start Date").inputValue(), START);
  // One template per session of the group's day (sessionsPerDay 2 by default), shown as HH:MM (ADR 0018).
  assert.equal(await schedule.getByTestId("session-template").count(), 2);
  assert.deepEqual(
    [
      await schedule.getByLabel("Template 1 start").inputValue(),
      await schedule.getByLabel("Template 1 end").inputValue(),
      await schedule.getByLabel("Template 2 start").inputValue(),
      await schedule.getByLabel("Template 2 end").inputValue(),
    ],
    ["09:00", "12:00", "13:00", "16:00"],
  );
  await screenshotAndAudit(page, "delivery-schedule-dialog");
  // Typed as H:MM, hours follow; a bad time says how to type it.
  await schedule.getByLabel("Template 2 end").fill("15:30");
  assert.equal(await schedule.getByLabel("Hours").nth(1).inputValue(), "2.5");
  await schedule.getByLabel("Template 2 start").fill("1pm");
  await schedule.getByRole("button", { name: "Generate Schedule" }).click();
  await schedule.getByText("Invalid time format, use HH:MM (24-hour)").waitFor();
  await schedule.getByRole("button", { name: "Remove template 2" }).click();
  await schedule.getByLabel("Template 1 start").fill("9:00");
  await schedule.getByRole("button", { name: "Generate Schedule" }).click();
  const note = page.locator(".mantine-Notification-root").filter({ hasText: "Block group scheduled" }).first();
  await note.waitFor({ timeout: 15000 });
  const done = await note.innerText();
  // The success names the last class and the group's end date (a month later, docs/behaviour/generation.md §8).
  assert.match(done, /Last class on \d{2}\/\d{2}\/\d{4}\. The group's end date is \d{2}\/\d{2}\/\d{4}\./);
  await page.getByTestId("timetabled-units").getByText(UNIT_A.code).waitFor();
  // Against the plan's hours: a fully scheduled unit is 100%, not "-40%" against its nominal hours.
  await page.getByRole("progressbar", { name: `${UNIT_A.code} timetabled 100%` }).waitFor();
  await screenshotAndAudit(page, "delivery-block-group-detail");
});

test("timetable: the holiday shows as Holiday/Term Break; allocate a teacher", async () => {
  await page.goto(`${BASE_URL}/timetables`);
  await page.getByRole("main").getByRole("heading", { name: "Timetables" }).waitFor(); // the page's own, not the header's title
  assert.equal(await page.getByLabel("Hide past sessions").isChecked(), true);
  await filterTimetable(page, GROUP.code);
  const cancelled = page.getByTestId("session-row").filter({ hasText: "Holiday/Term Break" }).first();
  await cancelled.waitFor();
  assert.match(await cancelled.innerText(), /N\/A/);
  const struck = await cancelled.getByTestId("session-time").evaluate((el) => getComputedStyle(el).textDecorationLine);
  assert.match(struck, /line-through/);
  const first = page.getByTestId("session-row").filter({ hasText: UNIT_A.code }).first();
  await first.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Allocate Teacher" }).click();
  const dialog = page.getByRole("dialog", { name: "Allocate Teacher" });
  await chooseOption(dialog, "Teacher", "Aisha Rahman");
  await dialog.getByRole("button", { name: "Allocate" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.getByTestId("session-row").filter({ hasText: "Aisha Rahman" }).first().waitFor();
  await screenshotAndAudit(page, "delivery-timetables");
});

test("timetable: allocating the same teacher to a clashing session is refused with its reason", async () => {
  // A second group on the same days and times, set up through the API.
  const courses = (await apiCall(page, "GET", "/api/courses")).json;
  const plans = (await apiCall(page, "GET", "/api/study-plans")).json;
  const course = courses.find((c) => c.code === COURSE.code);
  const plan = plans.find((p) => p.name === PLAN);
  const created = await apiCall(page, "POST", "/api/block-groups", {
    code: CLASH_GROUP,
    name: `Clash ${RUN}`,
    courseId: course.id,
    cohortSize: 10,
    startDate: START,
    preferredDays: "Monday, Friday",
    status: "active",
  });
  assert.equal(created.status, 201, created.text);
  const link = await apiCall(page, "POST", `/api/block-groups/${created.json.id}/study-plans`, { studyPlanId: plan.id });
  assert.ok(link.status < 300, link.text);
  const scheduled = await apiCall(page, "POST", `/api/block-groups/${created.json.id}/schedule`, {
    sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }],
    startDate: START,
    room: "",
    notes: "",
    startNextUnitInNewWeek: false,
  });
  assert.equal(scheduled.status, 200, scheduled.text);

  await page.goto(`${BASE_URL}/timetables`);
  await filterTimetable(page, CLASH_GROUP);
  const row = page.getByTestId("session-row").filter({ hasText: UNIT_A.code }).first();
  await row.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Allocate Teacher" }).click();
  const dialog = page.getByRole("dialog", { name: "Allocate Teacher" });
  await chooseOption(dialog, "Teacher", "Aisha Rahman");
  await dialog.getByRole("button", { name: "Allocate" }).click();
  const alert = dialog.getByTestId("conflict-alert");
  await alert.waitFor();
  const reason = await alert.innerText();
  assert.match(reason, /Aisha Rahman|double|already/i, reason);
  await screenshotAndAudit(page, "delivery-allocation-clash");
  await dialog.getByRole("button", { name: "Cancel" }).click();
});

test("timetable: the CSV export has the documented columns and the sessions", async () => {
  await page.goto(`${BASE_URL}/timetables`);
  await filterTimetable(page, GROUP.code);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const name = download.suggestedFilename();
  assert.match(name, new RegExp(`^timetable-\\d{4}-\\d{2}-\\d{2}-${GROUP.code}-future-only\\.csv$`), name);
  const text = readFileSync(await download.path(), "utf8");
  const lines = text.trim().split(/\r?\n/);
  assert.equal(lines[0], "Date,Day of Week,Start Time,End Time,Week Number,Unit Code,Unit Name,Block Group,Teacher,Room,Status,Actual Hours,Notes");
  assert.ok(
    lines.some((l) => l.startsWith("14/12/2026,Monday,09:00,12:00,1,") && l.includes(UNIT_A.code) && l.includes("Aisha Rahman")),
    lines.slice(0, 4).join("\n"),
  );
  assert.ok(lines.some((l) => l.includes("Holiday/Term Break") && l.includes("Cancelled")));
  const teaching = lines.slice(1).filter((l) => !l.includes("Holiday/Term Break"));
  assert.equal(teaching.length, 6); // 18 facilitated hours in 3-hour sessions
});

test("reports: the default tab, and the allocated hours in the workload and load planning", async () => {
  await page.goto(`${BASE_URL}/reports`);
  await page.getByRole("main").getByRole("heading", { name: "Reports", exact: true }).waitFor();
  assert.equal(await page.getByRole("tab", { name: "Block Groups Without Timetables" }).getAttribute("aria-selected"), "true");
  await page.getByTestId("without-count").waitFor();
  await screenshotAndAudit(page, "delivery-reports-without-timetables");

  await page.getByRole("tab", { name: "Teacher Workload Summary" }).click();
  const aisha = page.getByTestId("workload-teacher").filter({ hasText: "Aisha Rahman" });
  await aisha.waitFor();
  const row = aisha.getByRole("row").filter({ hasText: UNIT_A.code });
  await row.waitFor();
  assert.match(await row.innerText(), /\b3\b/); // the one allocated 3-hour session
  await screenshotAndAudit(page, "delivery-reports-workload");

  await page.getByRole("tab", { name: "Scheduling Summary" }).click();
  await page.getByText("Monthly Breakdown").waitFor();
  await screenshotAndAudit(page, "delivery-reports-scheduling");

  await page.getByRole("tab", { name: "Load Planning" }).click();
  await page.getByTestId("load-term").first().waitFor();
  const group = page.getByRole("row").filter({ hasText: GROUP.code }).first();
  await group.waitFor();
  console.log("load planning row:", await group.innerText());
  await screenshotAndAudit(page, "delivery-reports-load-planning");
});
