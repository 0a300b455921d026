// Shared helpers for the end-to-end tests: Debian's Chromium driven by playwright-core against the server
// that scripts/e2e.sh started (BASE_URL), with the demo data of `manage.py seed_demo`.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

export const BASE_URL = process.env.BASE_URL ?? "http://localhost:8765";
export const ARTIFACTS = resolve(import.meta.dirname, "../../e2e-artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

// Demo accounts made by seed_demo (project/operations/management/commands/seed_demo.py).
export const DEMO = {
  admin: { email: "admin@demo.blockplan.edu.au", password: "Blockplan-Demo-2026!" },
  coordinator: { email: "coordinator@demo.blockplan.edu.au", password: "Blockplan-Demo-2026!" },
  coordinator2: { email: "coordinator2@demo.blockplan.edu.au", password: "Blockplan-Demo-2026!" },
};

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/**
 * The Chromium that the tests of one file share: a node:test hook launches it before the file's first test, then
 * runs `setUp(browser)` when given (the file's own preparation: pages signed in, records made), and another
 * closes it, with every context opened in it, after the last test. Node 20 starts a file's top-level `before`
 * hooks side by side, so preparation that needs the browser goes in `setUp`, not in a `before` of its own.
 * `browser` is set once the hook has run. With `skip` (a file whose tests are all skipped in this run) nothing
 * is launched.
 */
export function browserForFile(setUp = null, { skip = false } = {}) {
  const shared = { browser: undefined };
  before(async () => {
    if (skip) return;
    shared.browser = await launch();
    await setUp?.(shared.browser);
  });
  after(async () => {
    await shared.browser?.close();
  });
  return shared;
}

export async function newPage(browser, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL });
  const page = await context.newPage();
  return { context, page };
}

/** A new browser context whose page is signed in through the API as `account` (one of DEMO): {context, page}. */
export async function signedInPage(browser, account) {
  const opened = await newPage(browser);
  await apiLogin(opened.page, account);
  return opened;
}

/**
 * POST /api/auth/login from inside the page (already on the SPA's origin) with `credentials` (email, password,
 * and totpCode when the account has one), after the GET that sets the CSRF cookie: answers {status, body}.
 */
export async function postLogin(page, credentials) {
  return page.evaluate(async (credentials) => {
    await fetch("/api/auth/user", { credentials: "same-origin" });
    const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
    const r = await fetch("/api/auth/login", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ ...credentials, rememberMe: false }),
    });
    return { status: r.status, body: await r.text() };
  }, credentials);
}

/** Signs in through the API from inside the page (sets the session cookie for the context). */
export async function apiLogin(page, { email, password }) {
  await page.goto(`${BASE_URL}/auth`);
  const result = await postLogin(page, { email, password });
  if (result.status !== 200) throw new Error(`login failed: ${result.status} ${result.body}`);
  return JSON.parse(result.body);
}

/** Calls the API from inside the page with the session and CSRF header. */
export async function apiCall(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
      const r = await fetch(path, {
        method,
        credentials: "same-origin",
        headers: body === undefined ? { "X-CSRFToken": token } : { "Content-Type": "application/json", "X-CSRFToken": token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      let json = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      return { status: r.status, json, text };
    },
    { method, path, body },
  );
}

export async function screenshot(page, name) {
  await page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Screenshot of the page as `name`, then the serious/critical axe check, asserted empty (the violations in the message). */
export async function screenshotAndAudit(page, name) {
  await screenshot(page, name);
  const violations = await seriousA11yViolations(page);
  assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations, null, 2)}`);
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Runs axe-core in the page; returns violations of impact serious or critical. */
export async function seriousA11yViolations(page) {
  // Judge the settled page: finish transitions (a dialog fading in over its overlay reads as low contrast).
  await page.addStyleTag({ content: "*,*::before,*::after{transition:none!important;animation:none!important}" });
  await page.waitForTimeout(350);
  // Evaluated through the DevTools protocol: an inline <script> tag would be refused by the CSP (script-src 'self').
  await page.evaluate(`${AXE_SOURCE}\n;void 0;`);
  const results = await page.evaluate(async () => {
    // With a modal dialog open the page behind it is inert: judge the dialog, as a keyboard or screen
    // reader user meets it (the dimmed page under the overlay would read as low contrast).
    const dialog = document.querySelector('[role="dialog"][aria-modal="true"], [role="dialog"]');
    const r = await axe.run(dialog ?? document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  return results.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** A string as a literal inside a RegExp. */
export const esc = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A Mantine Select/Autocomplete by its label (a required field's label ends with " *"). */
export const combo = (scope, label) => scope.getByRole("combobox", { name: new RegExp(`^${esc(label)}( \\*)?$`) });

/** Picks `option` (its name, or a RegExp; the first that matches) in the Mantine Select labelled `label` in `scope`. */
export async function chooseOption(scope, label, option) {
  const select = combo(scope, label);
  await select.click();
  await select.page().getByRole("option", { name: option }).first().click();
}

/** The timetables screen showing one block group's sessions. */
export async function openTimetable(page, groupCode) {
  await page.goto(`${BASE_URL}/timetables`);
  await filterTimetable(page, groupCode);
}

/** On the timetables screen (already open), picks one block group and waits for its sessions. */
export async function filterTimetable(page, groupCode) {
  await combo(page, "Block Group").fill(groupCode);
  await page
    .getByRole("option", { name: new RegExp(esc(groupCode)) })
    .first()
    .click();
  await page.getByTestId("session-row").first().waitFor();
}

/** Two coordinators of the demo organization, signed in, each in their own browser context. */
export async function twoCoordinators(browser) {
  const a = await signedInPage(browser, DEMO.coordinator);
  const b = await signedInPage(browser, DEMO.coordinator2);
  return { a, b };
}

/** A fresh block group with a one-unit plan of `hours`, scheduled in 3-hour sessions from `startDate`
 * on `day` (of `campusId` when given), and a new active teacher (not qualified): what the collaboration tests edit. */
export async function scheduledGroupAndTeacher(page, { tag, hours, startDate, day, firstName, lastName, campusId = null }) {
  const must = (r, status) => {
    if (r.status !== status) throw new Error(`${status} expected: ${r.status} ${r.text}`);
    return r.json;
  };
  const course = must(await apiCall(page, "GET", "/api/courses"), 200)[0];
  const unit = must(await apiCall(page, "POST", "/api/units", { code: `${tag}U`, name: `Unit ${tag}`, nominalHours: hours }), 201);
  const plan = must(await apiCall(page, "POST", "/api/study-plans", { name: `Plan ${tag}`, totalNominalHours: hours }), 201);
  must(await apiCall(page, "POST", `/api/study-plans/${plan.id}/units`, { unitId: unit.id, faceToFaceHours: hours }), 201);
  const group = must(
    await apiCall(page, "POST", "/api/block-groups", {
      code: `${tag}-G`,
      name: `Group ${tag}`,
      courseId: course.id,
      cohortSize: 12,
      startDate,
      preferredDays: day,
      ...(campusId ? { campusId } : {}),
    }),
    201,
  );
  must(await apiCall(page, "POST", `/api/block-groups/${group.id}/study-plans`, { studyPlanId: plan.id }), 201);
  must(
    await apiCall(page, "POST", `/api/block-groups/${group.id}/schedule`, {
      sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }],
      startDate,
      room: "",
      notes: "",
      startNextUnitInNewWeek: false,
    }),
    200,
  );
  const sessions = must(await apiCall(page, "GET", `/api/timetables?blockGroupId=${group.id}&hidePast=true`), 200);
  const teacher = must(
    await apiCall(page, "POST", "/api/teachers", {
      employeeId: `${tag}T`,
      firstName,
      lastName,
      email: `${firstName}.${tag}@demo.blockplan.edu.au`.toLowerCase(),
      availability: "both",
      maxWeeklyHours: 40,
    }),
    201,
  );
  return { group, sessions, teacher, unit };
}

/** Today's date in Melbourne, the demo organization's time zone, as YYYY-MM-DD. */
function melbourneToday() {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Australia/Melbourne", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
}

/**
 * A one-hour session today from `startTime` (HH:MM:SS) to `endTime` in `room`, scheduled and unassigned, of the
 * first active block group and the first unit, added through the API in `page`: what the wall display tests
 * watch. Answers the session.
 */
export async function addSessionToday(page, { startTime, endTime, room }) {
  const groups = await apiCall(page, "GET", "/api/block-groups?status=active");
  assert.equal(groups.status, 200, groups.text);
  const units = await apiCall(page, "GET", "/api/units");
  const today = melbourneToday();
  const created = await apiCall(page, "POST", "/api/timetables", {
    blockGroupId: groups.json[0].id,
    unitId: units.json[0].id,
    dayOfWeek: new Date(`${today}T12:00:00Z`).getUTCDay() || 7,
    startTime,
    endTime,
    actualDate: today,
    weekNumber: 1,
    actualHours: 1,
    room,
    status: "scheduled",
    teacherId: null,
    notes: "",
  });
  assert.equal(created.status, 201, created.text);
  return created.json;
}

/**
 * Opens the wall display of link `token` in `page` and waits until it shows the session at `time` (as the board
 * writes it, "6:00 am") as Unassigned and is connected (no reconnecting notice).
 */
export async function openDisplayBoard(page, token, time) {
  await page.goto(`${BASE_URL}/display/${token}`);
  await page.locator('[data-testid="display-session"]', { hasText: time }).filter({ hasText: "Unassigned" }).first().waitFor({ timeout: 10_000 });
  await page.locator('[data-testid="display-reconnecting"]').waitFor({ state: "detached", timeout: 10_000 });
}
