// Shared helpers for the end-to-end tests: Debian's Chromium driven by playwright-core against the server
// that scripts/e2e.sh started (BASE_URL), with the demo data of `manage.py seed_demo`.
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

export const BASE_URL = process.env.BASE_URL ?? "http://localhost:8765";
export const ARTIFACTS = resolve(import.meta.dirname, "../../e2e-artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

// Demo accounts made by seed_demo (project/core/management/commands/seed_demo.py).
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

export async function newPage(browser, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL });
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the API from inside the page (sets the session cookie for the context). */
export async function apiLogin(page, { email, password }) {
  await page.goto(`${BASE_URL}/auth`);
  const result = await page.evaluate(
    async ({ email, password }) => {
      await fetch("/api/auth/user", { credentials: "same-origin" });
      const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
      const r = await fetch("/api/auth/login", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token },
        body: JSON.stringify({ email, password, rememberMe: false }),
      });
      return { status: r.status, body: await r.text() };
    },
    { email, password },
  );
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

/** The timetables screen showing one block group's sessions. */
export async function openTimetable(page, groupCode) {
  await page.goto(`${BASE_URL}/timetables`);
  await combo(page, "Block Group").fill(groupCode);
  await page
    .getByRole("option", { name: new RegExp(esc(groupCode)) })
    .first()
    .click();
  await page.getByTestId("session-row").first().waitFor();
}

/** Two coordinators of the demo organization, signed in, each in their own browser context. */
export async function twoCoordinators(browser) {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await apiLogin(a.page, DEMO.coordinator);
  await apiLogin(b.page, DEMO.coordinator2);
  return { a, b };
}

/** A fresh block group with a one-unit plan of `hours`, scheduled in 3-hour sessions from `startDate`
 * on `day`, and a new active teacher (not qualified): what the collaboration tests edit. */
export async function scheduledGroupAndTeacher(page, { tag, hours, startDate, day, firstName, lastName }) {
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
