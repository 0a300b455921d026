// Teacher availability (ADR 0027): on the teacher page a coordinator paints a sessional teacher's week down
// to Monday and Wednesday by dragging the "Unavailable" brush down the other days (and one cell with the
// keyboard), saves, and auto-allocation then gives the teacher only the Monday and Wednesday sessions of a
// group taught every weekday; the teacher's planner board shades the other days.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, browserForFile, scheduledGroupAndTeacher, screenshotAndAudit, signedInPage } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let page;
let made;
let browserOfFile;

browserForFile(async (browser) => {
  browserOfFile = browser;
  ({ page } = await signedInPage(browser, DEMO.coordinator));
  made = await scheduledGroupAndTeacher(page, {
    tag: `AV${RUN}`,
    hours: 15,
    startDate: "2027-08-02", // a Monday
    day: "Monday, Tuesday, Wednesday, Thursday, Friday",
    firstName: "Sia",
    lastName: `Sessional${RUN}`,
  });
  assert.equal(made.sessions.length, 5);
  const qualified = await apiCall(page, "POST", "/api/teacher-units", { teacherId: made.teacher.id, unitId: made.unit.id });
  assert.equal(qualified.status, 201, qualified.text);
});

/** Drags the current brush down one day's column, from its first to its last half hour. */
async function dragDown(card, day) {
  await card.locator("table").evaluate((table) => table.scrollIntoView({ block: "center" }));
  const first = await card.locator(`[data-cell="${day}:14"]`).boundingBox();
  const last = await card.locator(`[data-cell="${day}:43"]`).boundingBox();
  await page.mouse.move(first.x + first.width / 2, first.y + first.height / 2);
  await page.mouse.down();
  await page.mouse.move(last.x + last.width / 2, last.y + last.height / 2, { steps: 25 });
  await page.mouse.up();
}

test("painting Monday and Wednesday keeps auto-allocation to them", async () => {
  await page.goto(`${BASE_URL}/teachers/${made.teacher.id}`);
  const card = page.getByTestId("teacher-availability");
  await card.locator('[data-cell="1:20"][data-state="on"]').waitFor(); // Tuesday 10:00, from the form's "both"

  await card.locator("label", { hasText: /^Unavailable$/ }).click();
  for (const day of [1, 3, 4]) await dragDown(card, day);
  // The keyboard: with the Available brush, from Monday 08:00 the arrow keys move up and Space paints
  // 07:30 and 07:00 too.
  await card.locator("label", { hasText: /^Available$/ }).click();
  await card.locator('[data-cell="0:16"]').focus();
  for (const _ of [1, 2]) {
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Space");
  }
  assert.equal(await card.locator('[data-cell="0:14"]').getAttribute("data-state"), "on");
  for (const day of [1, 3, 4]) assert.equal(await card.locator(`[data-cell^="${day}:"][data-state="on"]`).count(), 0);
  assert.equal(await card.locator('[data-cell^="2:"][data-state="on"]').count(), 28); // Wednesday 08:00-22:00

  await card.getByRole("button", { name: "Save Availability" }).click();
  await page.getByText("Availability saved").waitFor();
  await screenshotAndAudit(page, "availability-painted");

  const saved = await apiCall(page, "GET", `/api/teachers/${made.teacher.id}/availability`);
  assert.equal(saved.status, 200, saved.text);
  assert.equal(saved.json.custom, true);
  assert.deepEqual(saved.json.windows, [
    { weekday: 0, start: "07:00", end: "22:00" },
    { weekday: 2, start: "08:00", end: "22:00" },
  ]);

  const proposal = await apiCall(page, "POST", "/api/timetables/auto-allocate", { blockGroupId: made.group.id, apply: false });
  assert.equal(proposal.status, 200, proposal.text);
  const weekday = (iso) => (new Date(`${iso}T12:00:00Z`).getUTCDay() + 6) % 7;
  const byId = Object.fromEntries(made.sessions.map((s) => [s.id, s]));
  const days = proposal.json.assignments.map((a) => weekday(byId[a.sessionId].actualDate)).sort();
  assert.deepEqual(days, [0, 2]);
  assert.ok(proposal.json.assignments.every((a) => a.teacherId === made.teacher.id));
  assert.equal(proposal.json.unassignable.length, 3);
});

test("the teacher's board shades the days outside the painted Monday and Wednesday", async () => {
  await page.goto(`${BASE_URL}/planner/teacher/${made.teacher.id}?view=week&date=2027-08-02`);
  await page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
  const shaded = (day) => page.locator(`td.fc-timegrid-col[data-date="${day}"] .bp-shade-unavailable`);
  await shaded("2027-08-03").first().waitFor(); // Tuesday: the answer of GET /api/teachers/unavailable
  for (const day of ["2027-08-03", "2027-08-05", "2027-08-06", "2027-08-07", "2027-08-08"]) {
    assert.equal(await shaded(day).count(), 1, day); // 07:00-22:00, the whole of the board's day
    assert.equal(await shaded(day).getAttribute("title"), "Unavailable");
  }
  assert.equal(await shaded("2027-08-02").count(), 0); // Monday 07:00-22:00 painted
  assert.equal(await shaded("2027-08-04").count(), 1); // Wednesday: only 07:00-08:00
  const wednesday = await shaded("2027-08-04").boundingBox();
  const tuesday = await shaded("2027-08-03").boundingBox();
  assert.ok(wednesday.height * 10 < tuesday.height, `${wednesday.height} vs ${tuesday.height}`);
  await page.locator(".bp-legend").getByText("Unavailable").waitFor();
  await screenshotAndAudit(page, "availability-board");
});

test("the block group's board shades the unavailable time of its sessions' teacher, by name", async () => {
  const proposal = await apiCall(page, "POST", "/api/timetables/auto-allocate", { blockGroupId: made.group.id, apply: false });
  assert.equal(proposal.status, 200, proposal.text);
  const applied = await apiCall(page, "POST", "/api/timetables/auto-allocate", {
    blockGroupId: made.group.id,
    apply: true,
    version: proposal.json.version,
    assignments: proposal.json.assignments.map((a) => ({ sessionId: a.sessionId, teacherId: a.teacherId })),
  });
  assert.equal(applied.status, 200, applied.text);
  await page.goto(`${BASE_URL}/planner/block-group/${made.group.id}?view=week&date=2027-08-02`);
  await page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
  const shaded = (day) => page.locator(`td.fc-timegrid-col[data-date="${day}"] .bp-shade-unavailable`);
  await shaded("2027-08-05").first().waitFor();
  assert.equal(await shaded("2027-08-05").getAttribute("title"), `Sia Sessional${RUN} unavailable`);
  assert.equal(await shaded("2027-08-02").count(), 0);
});

test("the teachers page exports availability and reports an import it cannot read", async () => {
  await page.goto(`${BASE_URL}/teachers`);
  const exportLink = page.getByRole("link", { name: "Export Availability" });
  assert.equal(await exportLink.getAttribute("href"), "/api/teachers/availability/export");
  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  assert.equal(download.suggestedFilename(), "teacher-availability.xlsx");

  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Import Availability" }).click()]);
  await chooser.setFiles({ name: "availability.csv", mimeType: "text/csv", buffer: Buffer.from("Employee ID,Kind\n") });
  const dialog = page.getByRole("dialog", { name: "Availability not imported" });
  await dialog.getByText("Only .xlsx or .xls files are accepted").first().waitFor();
});

test("the allocation grid names the painted days and shades a week a date range empties", async () => {
  const current = await apiCall(page, "GET", `/api/teachers/${made.teacher.id}/availability`);
  const iso = (days) => new Date(Date.now() + days * 86400000).toISOString().slice(0, 10);
  const { windows, preferences } = current.json;
  const body = { windows, preferences, variants: [{ name: "Away", startDate: iso(-7), endDate: iso(7), windows: [] }] };
  const saved = await apiCall(page, "PUT", `/api/teachers/${made.teacher.id}/availability`, body);
  assert.equal(saved.status, 200, saved.text);

  const { page: admin } = await signedInPage(browserOfFile, DEMO.admin);
  await admin.goto(`${BASE_URL}/teacher-allocation-gantt`);
  const row = admin.getByTestId("grid-teacher").filter({ hasText: `Sia Sessional${RUN}` });
  await row.getByTestId("grid-availability").filter({ hasText: "Mon, Wed" }).waitFor();
  await row.locator("td[data-unavailable]").first().waitFor();
  assert.ok((await row.locator("td[data-unavailable]").count()) >= 1);
});
