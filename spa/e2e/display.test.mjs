// Wall displays (issue 11): a board on a display link updates within a second when a coordinator
// allocates a teacher in another browser context, and shows the revoked message after revocation.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, apiLogin, launch, newPage, screenshot, seriousA11yViolations } from "./lib.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

function melbourneToday() {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "Australia/Melbourne", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  return parts; // YYYY-MM-DD
}

test("a display board updates live and shows revocation", async () => {
  const admin = await newPage(browser);
  await apiLogin(admin.page, DEMO.admin);

  // A session today, unassigned, in a room of its own.
  const groups = await apiCall(admin.page, "GET", "/api/block-groups?status=active");
  assert.equal(groups.status, 200, groups.text);
  const group = groups.json[0];
  const units = await apiCall(admin.page, "GET", "/api/units");
  const teachers = await apiCall(admin.page, "GET", "/api/teachers");
  const today = melbourneToday();
  const day = new Date(`${today}T12:00:00Z`).getUTCDay() || 7;
  const created = await apiCall(admin.page, "POST", "/api/timetables", {
    blockGroupId: group.id,
    unitId: units.json[0].id,
    dayOfWeek: day,
    startTime: "06:00:00",
    endTime: "07:00:00",
    actualDate: today,
    weekNumber: 1,
    actualHours: 1,
    room: "E2E-WALL",
    status: "scheduled",
    teacherId: null,
    notes: "",
  });
  assert.equal(created.status, 201, created.text);
  const session = created.json;

  const link = await apiCall(admin.page, "POST", "/api/display-links", { name: "E2E staff room", groupBy: "room" });
  assert.equal(link.status, 201, link.text);

  // The board: another context, nobody signed in.
  const board = await newPage(browser, { width: 1920, height: 1080 });
  await board.page.goto(`${BASE_URL}/display/${link.json.token}`);
  const row = board.page.locator('[data-testid="display-session"]', { hasText: "6:00 am" }).filter({ hasText: "Unassigned" });
  await row.first().waitFor({ timeout: 10_000 });
  await board.page.locator('[data-testid="display-reconnecting"]').waitFor({ state: "detached", timeout: 10_000 });

  const teacher = teachers.json.find((t) => t.isActive);
  const allocated = await apiCall(admin.page, "PUT", "/api/timetables/bulk-allocate", { sessionIds: [session.id], teacherId: teacher.id });
  assert.equal(allocated.status, 200, allocated.text);
  const started = Date.now();
  const name = `${teacher.firstName} ${teacher.lastName}`;
  await board.page.locator('[data-testid="display-session"]', { hasText: name }).filter({ hasText: "6:00 am" }).first().waitFor({ timeout: 1000 });
  const elapsed = Date.now() - started;
  assert.ok(elapsed <= 1000, `board updated after ${elapsed} ms`);
  await screenshot(board.page, "display-landscape-1920x1080");
  assert.deepEqual(await seriousA11yViolations(board.page), []);

  await board.page.setViewportSize({ width: 1080, height: 1920 });
  await screenshot(board.page, "display-portrait-1080x1920");

  const revoked = await apiCall(admin.page, "DELETE", `/api/display-links/${link.json.id}`);
  assert.equal(revoked.status, 200, revoked.text);
  await board.page.getByText("This display link has been revoked").waitFor({ timeout: 5000 });
  await screenshot(board.page, "display-revoked");

  await apiCall(admin.page, "DELETE", `/api/timetables/${session.id}`);
  await board.context.close();
  await admin.context.close();
});
