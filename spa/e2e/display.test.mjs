// Wall displays: a board on a display link updates within a second when a coordinator
// allocates a teacher in another browser context, and shows the revoked message after revocation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEMO, addSessionToday, apiCall, browserForFile, newPage, openDisplayBoard, screenshot, screenshotAndAudit, signedInPage } from "./lib.mjs";

const shared = browserForFile();

test("a display board updates live and shows revocation", async () => {
  const admin = await signedInPage(shared.browser, DEMO.admin);

  // A session today, unassigned, in a room of its own.
  const session = await addSessionToday(admin.page, { startTime: "06:00:00", endTime: "07:00:00", room: "E2E-WALL" });
  const teachers = await apiCall(admin.page, "GET", "/api/teachers");

  const link = await apiCall(admin.page, "POST", "/api/display-links", { name: "E2E staff room", groupBy: "room" });
  assert.equal(link.status, 201, link.text);

  // The board: another context, nobody signed in.
  const board = await newPage(shared.browser, { width: 1920, height: 1080 });
  await openDisplayBoard(board.page, link.json.token, "6:00 am");

  const teacher = teachers.json.find((t) => t.isActive);
  const allocated = await apiCall(admin.page, "PUT", "/api/timetables/bulk-allocate", { sessionIds: [session.id], teacherId: teacher.id });
  assert.equal(allocated.status, 200, allocated.text);
  const started = Date.now();
  const name = `${teacher.firstName} ${teacher.lastName}`;
  await board.page.locator('[data-testid="display-session"]', { hasText: name }).filter({ hasText: "6:00 am" }).first().waitFor({ timeout: 1000 });
  const elapsed = Date.now() - started;
  assert.ok(elapsed <= 1000, `board updated after ${elapsed} ms`);
  await screenshotAndAudit(board.page, "display-landscape-1920x1080");

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
