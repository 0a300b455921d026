// The coordinator screens work (ADR 0018), the screens as a coordinator meets them: units search and qualification filter, the course and
// study plan pages' units and block groups, calendar subscriptions, the public holiday import, the Excel
// import through the screen, the Unit Delivery Summary, the allocation grid at this week, Load Planning's
// year, and the Allocate Teacher dialog's top five. Each checks the screen against the API's own answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { ARTIFACTS, BASE_URL, DEMO, apiCall, browserForFile, chooseOption, openTimetable, screenshot, signedInPage } from "./lib.mjs";
import { captureScreen, openInShell } from "./platform-helpers.mjs";

const RUN = Date.now().toString().slice(-6);
const PYTHON = resolve(import.meta.dirname, "../../.venv/bin/python");
let page;

browserForFile(async (browser) => {
  ({ page } = await signedInPage(browser, DEMO.admin));
});

test("units: search by code or name, filter by qualification", async () => {
  const units = (await apiCall(page, "GET", "/api/units")).json;
  const courses = (await apiCall(page, "GET", "/api/courses")).json;
  await page.goto(`${BASE_URL}/units`);
  await page.getByTestId("unit-card").first().waitFor();
  assert.equal(await page.getByTestId("unit-count").innerText(), `${units.length} of ${units.length} units`);

  const term = units[0].name.split(" ").slice(0, 2).join(" ");
  const expected = units.filter((u) => u.code.toLowerCase().includes(term.toLowerCase()) || u.name.toLowerCase().includes(term.toLowerCase()));
  await page.getByLabel("Search units").fill(term);
  await page
    .getByTestId("unit-count")
    .filter({ hasText: `${expected.length} of ${units.length} units` })
    .waitFor();
  assert.equal(await page.getByTestId("unit-card").count(), expected.length);
  await page.getByLabel("Search units").fill("");

  let course = null;
  let inCourse = [];
  for (const c of courses) {
    inCourse = (await apiCall(page, "GET", `/api/units?courseId=${c.id}`)).json;
    if (inCourse.length && inCourse.length < units.length) {
      course = c;
      break;
    }
  }
  assert.ok(course, "the demo has a course whose block groups use some of the units");
  await chooseOption(page, "Qualification", `${course.code} - ${course.name}`);
  await page
    .getByTestId("unit-count")
    .filter({ hasText: `${inCourse.length} of ${units.length} units` })
    .waitFor();
  assert.deepEqual(
    (await page.getByTestId("unit-card").allInnerTexts()).map((t) => inCourse.find((u) => t.includes(u.code))?.code).sort(),
    inCourse.map((u) => u.code).sort(),
  );
  await captureScreen(page, "coordinator-units-filtered");
});

test("a course and a study plan list their units and block groups", async () => {
  const plans = (await apiCall(page, "GET", "/api/study-plans")).json;
  let plan = null;
  let groups = [];
  for (const p of plans) {
    groups = (await apiCall(page, "GET", `/api/block-groups?studyPlan=${p.id}`)).json;
    if (groups.length) {
      plan = p;
      break;
    }
  }
  assert.ok(plan, "a demo plan is assigned to a block group");
  const planUnits = (await apiCall(page, "GET", `/api/study-plans/${plan.id}/units`)).json;
  await page.goto(`${BASE_URL}/study-plans/${plan.id}`);
  const unitsCard = page.getByTestId("plan-units");
  await unitsCard.getByRole("heading", { name: `Units of Competency (${planUnits.length})` }).waitFor();
  assert.equal(await unitsCard.locator("tbody tr").count(), planUnits.length);
  const groupsCard = page.getByTestId("plan-block-groups");
  await groupsCard.getByRole("heading", { name: `Block Groups (${groups.length})` }).waitFor();
  assert.deepEqual(
    await groupsCard.locator("tbody tr td:first-child").allInnerTexts(),
    groups.map((g) => g.code),
  );
  await captureScreen(page, "coordinator-study-plan-detail");

  const group = groups[0];
  const course = (await apiCall(page, "GET", `/api/courses/${group.courseId}`)).json;
  const courseGroups = (await apiCall(page, "GET", `/api/block-groups?course=${encodeURIComponent(course.code)}`)).json;
  const courseUnits = (await apiCall(page, "GET", `/api/units?courseId=${course.id}`)).json;
  await page.goto(`${BASE_URL}/courses/${course.id}`);
  await page
    .getByTestId("course-block-groups")
    .getByRole("heading", { name: `Block Groups (${courseGroups.length})` })
    .waitFor();
  await page
    .getByTestId("course-units")
    .getByRole("heading", { name: `Units of Competency (${courseUnits.length})` })
    .waitFor();
  // A row links to its record.
  await page.getByTestId("course-block-groups").getByRole("link", { name: group.code }).click();
  await page.getByRole("heading", { name: group.name }).waitFor();
});

test("calendar subscription: a block group's link answers an iCalendar until it is revoked", async () => {
  const groups = (await apiCall(page, "GET", "/api/block-groups")).json;
  const group = groups.find((g) => g.timetableCount > 0);
  await page.goto(`${BASE_URL}/block-groups/${group.id}`);
  await page.getByRole("button", { name: "Subscribe in calendar" }).click();
  const dialog = page.getByRole("dialog", { name: `Subscribe in calendar - ${group.code}` });
  await dialog.getByRole("button", { name: "Create subscription link" }).click();
  const field = dialog.getByLabel("Subscription URL", { exact: true });
  await field.waitFor();
  const url = await field.inputValue();
  assert.match(url, /\/api\/calendar-feeds\/[^/]+\.ics$/);
  await captureScreen(page, "coordinator-calendar-subscription");
  // A calendar client has no session: the link alone is the key.
  const ics = await fetch(url);
  assert.equal(ics.status, 200);
  assert.match(ics.headers.get("content-type"), /text\/calendar/);
  const body = await ics.text();
  assert.match(body, /^BEGIN:VCALENDAR/);
  assert.match(body, /BEGIN:VEVENT/);
  await dialog.getByRole("button", { name: "Revoke link" }).click();
  await dialog.getByRole("button", { name: "Create subscription link" }).waitFor();
  assert.equal((await fetch(url)).status, 404);
});

test("public holidays: preview a state's year, then add it", async () => {
  const year = new Date().getFullYear() + 3;
  await page.goto(`${BASE_URL}/holidays`);
  await page.getByRole("button", { name: "Import public holidays" }).click();
  const dialog = page.getByRole("dialog", { name: "Import public holidays" });
  await chooseOption(dialog, "State", "SA");
  await chooseOption(dialog, "Year", String(year));
  const preview = dialog.getByTestId("import-preview");
  await preview.getByText("Adelaide Cup Day").waitFor();
  const rows = await preview.locator("tbody tr").count();
  assert.ok(rows >= 8, `a year of SA public holidays (${rows})`);
  assert.equal(
    (await apiCall(page, "GET", `/api/holidays?year=${year}&type=public_holiday`)).json.filter((h) => !h.isRecurring).length,
    0,
    "nothing written by the preview",
  );
  await captureScreen(page, "coordinator-holiday-import");
  await dialog.getByRole("button", { name: `Add ${rows} holidays` }).click();
  await page.getByText("Public holidays imported").first().waitFor();
  const added = (await apiCall(page, "GET", `/api/holidays?year=${year}&type=public_holiday`)).json.filter((h) => !h.isRecurring);
  assert.equal(added.length, rows);
  for (const h of added) assert.equal((await apiCall(page, "DELETE", `/api/holidays/${h.id}`)).status, 204);
});

test("timetable import: an Excel file through the screen", async () => {
  const file = resolve(ARTIFACTS, `import-${RUN}.xlsx`);
  const group = `IMP-${RUN}`;
  execFileSync(
    PYTHON,
    [
      "-c",
      `
import sys
import django
django.setup()
from openpyxl import Workbook
from project.timetabling.importer import HEADERS
wb = Workbook(); ws = wb.active; ws.title = "Sessions"; ws.append(HEADERS)
def row(**kw): ws.append([kw.get(h, "") for h in HEADERS])
row(**{"Block Group Code": "${group}", "Block Group Name": "Imported ${RUN}", "Unit Code": "IMPU${RUN}", "Unit Name": "Imported unit",
       "Date": "2029-03-05", "Start Time": "09:00:00", "End Time": "12:00:00", "Room": "B1.01"})
row(**{"Block Group Code": "${group}", "Unit Code": "IMPU${RUN}", "Date": "2029-03-07", "Start Time": "09:00:00", "End Time": "12:00:00"})
wb.save(sys.argv[1])
`,
      file,
    ],
    { cwd: resolve(import.meta.dirname, "../.."), env: { ...process.env, DJANGO_SETTINGS_MODULE: "project.settings" } },
  );
  await page.goto(`${BASE_URL}/timetables`);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import Timetable" });
  await dialog.locator('input[type="file"]').setInputFiles(file);
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await page.getByText("Imported 2 sessions, 1 block groups and 1 units created.").first().waitFor({ timeout: 20000 });
  const created = (await apiCall(page, "GET", "/api/block-groups")).json.find((g) => g.code === group);
  assert.ok(created, "the import created the block group");
  const sessions = (await apiCall(page, "GET", `/api/timetables?blockGroupId=${created.id}`)).json;
  assert.deepEqual(sessions.map((s) => s.actualDate).sort(), ["2029-03-05", "2029-03-07"]);
});

test("Unit Delivery Summary: a teacher's delivered hours per unit and group for the chosen year", async () => {
  const year = new Date().getFullYear();
  const teachers = (await apiCall(page, "GET", "/api/teachers")).json;
  let teacher = null;
  let summary = [];
  for (const t of teachers) {
    summary = (await apiCall(page, "GET", `/api/teachers/${t.id}/delivery-summary?year=${year}`)).json;
    if (summary.length) {
      teacher = t;
      break;
    }
  }
  assert.ok(teacher, "a demo teacher delivers units this year");
  await page.goto(`${BASE_URL}/teachers/${teacher.id}`);
  const card = page.getByTestId("delivery-summary");
  await card.locator("tbody tr").first().waitFor();
  const rows = await card.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent.trim())));
  assert.deepEqual(
    rows.map((r) => [r[0].split(" - ")[0], r[1], Number(r[3])]),
    summary.map((s) => [s.unitCode, s.blockGroupCode, s.actualDeliveryHours]),
  );
  await captureScreen(page, "coordinator-unit-delivery-summary");
});

test("the allocation grid opens at this week; Load Planning plans any year", async () => {
  await page.goto(`${BASE_URL}/teacher-allocation-gantt`);
  const column = page.locator("th[data-current-week]");
  await column.waitFor();
  const scroller = await page.getByTestId("grid-scroller").boundingBox();
  const box = await column.boundingBox();
  assert.ok(box.x >= scroller.x && box.x + box.width <= scroller.x + scroller.width, "this week's column is in view");
  assert.ok(await page.getByTestId("grid-scroller").evaluate((el) => el.scrollLeft > 0 || el.scrollWidth <= el.clientWidth));

  const next = new Date().getFullYear() + 1;
  await page.goto(`${BASE_URL}/reports`);
  await page.getByRole("tab", { name: "Load Planning" }).click();
  const asked = page.waitForRequest((r) => r.url().includes(`/api/reports/load-planning?year=${next}`));
  await chooseOption(page.getByRole("tabpanel"), "Year", String(next));
  await asked;
});

test("Allocate Teacher: the top five teachers, Show all, and the button stays in view", async () => {
  const teachers = (await apiCall(page, "GET", "/api/teachers")).json;
  assert.ok(teachers.length > 5, "the demo has more than five teachers");
  const upcoming = (await apiCall(page, "GET", "/api/timetables?hidePast=true")).json.filter((s) => s.status !== "cancelled");
  await openTimetable(page, upcoming[0].blockGroup.code);
  await page.getByTestId("session-row").filter({ hasNotText: "Holiday/Term Break" }).first().getByRole("checkbox").check();
  await page.getByRole("button", { name: "Allocate Teacher" }).click();
  const dialog = page.getByRole("dialog", { name: "Allocate Teacher" });
  await dialog.getByTestId("recommendation").first().waitFor();
  assert.equal(await dialog.getByTestId("recommendation").count(), 5);
  const allocate = dialog.getByRole("button", { name: "Allocate", exact: true });
  const inView = async () => {
    const b = await allocate.boundingBox();
    return b && b.y >= 0 && b.y + b.height <= 900;
  };
  assert.ok(await inView(), "Allocate in view with the top five");
  await dialog.getByRole("button", { name: /^Show all \d+ teachers$/ }).click();
  assert.ok((await dialog.getByTestId("recommendation").count()) > 5);
  assert.ok(await inView(), "Allocate in view with every teacher listed");
  await captureScreen(page, "coordinator-allocate-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
});

test("dense screens: the dashboard, a block group and the timetable at 1440 px and 390 px", async () => {
  const groups = (await apiCall(page, "GET", "/api/block-groups")).json;
  const group = groups.find((g) => g.timetableCount > 0);
  const fits = (locator) => locator.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
  const untruncated = (locator) =>
    locator.evaluateAll((els) => els.every((el) => [el, ...el.querySelectorAll("*")].every((e) => e.scrollWidth <= e.clientWidth + 1)));

  // 1440 px: the Upcoming Sessions table shows every column; the timetable shows Status and Conflicts
  // whole, each row's actions without scrolling sideways, and its action buttons on one row.
  await page.setViewportSize({ width: 1440, height: 900 });
  await openInShell(page, "/");
  const upcoming = page.getByRole("region", { name: "Upcoming sessions table" });
  await upcoming.locator("tbody tr").first().waitFor();
  assert.ok(await fits(upcoming), "every Upcoming Sessions column shows");
  await page.waitForLoadState("networkidle");
  await screenshot(page, "dense-1440-dashboard");
  await page.goto(`${BASE_URL}/block-groups/${group.id}`);
  await page.getByRole("heading", { name: group.name }).waitFor();
  await page.waitForLoadState("networkidle");
  await screenshot(page, "dense-1440-block-group");
  const conflicted = (await apiCall(page, "GET", "/api/timetables?hidePast=true")).json.find((s) => s.conflicts.length);
  await openTimetable(page, conflicted?.blockGroup.code ?? group.code);
  assert.ok(await fits(page.getByTestId("sessions-scroller")), "no sideways scrolling");
  assert.ok(await untruncated(page.getByTestId("session-row").locator("td:nth-child(8) .mantine-Badge-root")), "Status whole");
  if (conflicted) assert.ok(await untruncated(page.getByTestId("conflict-badge")), "Conflicts whole");
  const tops = await Promise.all(
    ["Suggest allocation", "Allocate Teacher", "Import", "Export CSV", "Add Session"].map(
      async (name) => (await page.getByRole("button", { name, exact: true }).boundingBox()).y,
    ),
  );
  assert.equal(new Set(tops.map(Math.round)).size, 1, `the action buttons on one row: ${tops}`);
  await screenshot(page, "dense-1440-timetables");

  // 390 px: Quick Actions and the search stay reachable; the planner and the timetable are stacked cards.
  await page.setViewportSize({ width: 390, height: 844 });
  await openInShell(page, "/");
  await page.getByRole("button", { name: "Quick Actions" }).click();
  await page.getByRole("menuitem", { name: "Create Block Group" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByTestId("planner-stacked").waitFor();
  await page.waitForLoadState("networkidle");
  await screenshot(page, "dense-390-dashboard");
  await page.getByRole("button", { name: "Toggle navigation" }).click();
  const search = page.getByRole("textbox", { name: "Search courses, teachers, units" });
  await search.fill(group.code);
  await page
    .getByRole("option", { name: new RegExp(group.code) })
    .first()
    .click();
  await page.getByRole("heading", { name: group.name }).waitFor();
  await page.waitForLoadState("networkidle");
  await screenshot(page, "dense-390-block-group");
  await openTimetable(page, group.code);
  assert.equal(await page.getByTestId("session-row").first().getAttribute("role"), "listitem");
  assert.ok(await fits(page.getByTestId("sessions-scroller")), "cards, not a table scrolled sideways");
  await screenshot(page, "dense-390-timetables");
  await page.setViewportSize({ width: 1440, height: 900 });
});
