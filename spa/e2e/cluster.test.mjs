// Through the scaled-out deployment (nginx in front of two daphne processes, run by
// scripts/e2e.sh with E2E_CLUSTER=1), a wall display stays live while the processes are restarted one at
// a time: it reconnects, catches up with a change made while it was away, and shows the next one live.
// Outside the cluster run there is no cluster to restart: the test is skipped there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { DEMO, addSessionToday, apiCall, apiLogin, browserForFile, newPage, openDisplayBoard } from "./lib.mjs";

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLUSTER = process.env.E2E_CLUSTER === "1";
const shared = browserForFile(null, { skip: !CLUSTER });

test("a wall display stays live while the daphne processes restart one at a time", {
  skip: !CLUSTER && "not running through the cluster (E2E_CLUSTER=1)",
}, async () => {
  const admin = await newPage(shared.browser);
  const board = await newPage(shared.browser, { width: 1920, height: 1080 });
  try {
    await apiLogin(admin.page, DEMO.admin);
    const session = await addSessionToday(admin.page, { startTime: "05:00:00", endTime: "06:00:00", room: "E2E-CLUSTER" });
    const teachers = (await apiCall(admin.page, "GET", "/api/teachers")).json.filter((t) => t.isActive);
    const link = await apiCall(admin.page, "POST", "/api/display-links", { name: "E2E cluster foyer", groupBy: "room" });
    assert.equal(link.status, 201, link.text);

    await openDisplayBoard(board.page, link.json.token, "5:00 am");
    const row = () => board.page.locator('[data-testid="display-session"]', { hasText: "5:00 am" });

    // Restart the processes one at a time; halfway through, allocate a teacher (the board's socket may
    // be away at that moment: it must catch up when it is back).
    const restart = run(path.join(ROOT, "scripts/cluster.sh"), ["restart"], { cwd: ROOT, env: process.env, timeout: 120_000 });
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const [first, second] = teachers;
    const during = await apiCall(admin.page, "PUT", "/api/timetables/bulk-allocate", { sessionIds: [session.id], teacherId: first.id });
    assert.equal(during.status, 200, during.text);
    await restart;
    const restarted = Date.now();
    await row()
      .filter({ hasText: `${first.firstName} ${first.lastName}` })
      .first()
      .waitFor({ timeout: 3000 });
    await board.page.locator('[data-testid="display-reconnecting"]').waitFor({ state: "detached", timeout: 3000 });
    const caughtUp = Date.now() - restarted;

    // And it is live again: the next change shows within a second.
    const after = await apiCall(admin.page, "PUT", "/api/timetables/bulk-allocate", { sessionIds: [session.id], teacherId: second.id });
    assert.equal(after.status, 200, after.text);
    const started = Date.now();
    await row()
      .filter({ hasText: `${second.firstName} ${second.lastName}` })
      .first()
      .waitFor({ timeout: 1000 });
    assert.ok(Date.now() - started <= 1000);
    assert.ok(caughtUp <= 3000, `caught up ${caughtUp} ms after the restart`);
    await apiCall(admin.page, "DELETE", `/api/timetables/${session.id}`);
    await apiCall(admin.page, "DELETE", `/api/display-links/${link.json.id}`);
  } finally {
    await board.context.close();
    await admin.context.close();
  }
});
