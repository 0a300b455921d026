// The coordinator screens work (ADR 0018; dark theme reads): the main screens, with their badges, holiday cards and conflict tags, reach
// WCAG AA contrast in the dark theme as in the light one (axe-core in Chromium, serious or critical
// violations, colour contrast included).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, apiLogin, browserForFile, newPage, openTimetable, screenshot, seriousA11yViolations } from "./lib.mjs";

const contexts = {};

/** A new browser context whose pages open in `theme` (the SPA reads it from local storage): {context, page}. */
async function pageInTheme(theme) {
  const opened = await newPage(shared.browser);
  await opened.context.addInitScript((value) => window.localStorage.setItem("blockplan-theme", value), theme);
  return opened;
}

const shared = browserForFile(async () => {
  for (const theme of ["light", "dark"]) {
    const ctx = await pageInTheme(theme);
    await apiLogin(ctx.page, DEMO.coordinator);
    contexts[theme] = ctx;
  }
});

async function audit(page, theme, name) {
  await page.waitForFunction((t) => document.documentElement.getAttribute("data-mantine-color-scheme") === t, theme);
  const violations = await seriousA11yViolations(page);
  if (violations.length) await screenshot(page, `a11y-${theme}-${name}`);
  assert.deepEqual(violations, [], `${name} in the ${theme} theme`);
}

for (const theme of ["light", "dark"]) {
  test(`the main screens read in the ${theme} theme`, async () => {
    const { page } = contexts[theme];
    const upcoming = (await apiCall(page, "GET", "/api/timetables?hidePast=true")).json;
    const teachers = (await apiCall(page, "GET", "/api/teachers")).json;
    for (const [name, path] of [
      ["dashboard", "/"],
      ["block-groups", "/block-groups"],
      ["teachers", "/teachers"],
      ["teacher", `/teachers/${teachers[0].id}`],
      ["holidays", "/holidays"],
    ]) {
      await page.goto(`${BASE_URL}${path}`);
      await page.locator("main h1, main h2").first().waitFor();
      await page.waitForLoadState("networkidle");
      await audit(page, theme, name);
    }
    await openTimetable(page, upcoming.find((s) => s.conflicts.length)?.blockGroup.code ?? upcoming[0].blockGroup.code);
    await audit(page, theme, "timetable");
  });
}

// Every route of the SPA, signed in as an administrator (who sees every page), in both themes; the sign-in
// page and a wall display signed out; each report tab ("dark-theme axe ... on every route").
for (const theme of ["light", "dark"]) {
  test(`every route reads in the ${theme} theme`, async () => {
    const ctx = await pageInTheme(theme);
    const { page } = ctx;
    try {
      await page.goto(`${BASE_URL}/auth`);
      await page
        .getByRole("button", { name: /sign in/i })
        .first()
        .waitFor();
      await audit(page, theme, "sign-in");

      await apiLogin(page, DEMO.admin);
      const first = async (path) => (await apiCall(page, "GET", path)).json[0];
      const [course, unit, plan, group, teacher] = await Promise.all(
        ["/api/courses", "/api/units", "/api/study-plans", "/api/block-groups", "/api/teachers"].map(first),
      );
      const routes = [
        ["dashboard", "/"],
        ["courses", "/courses"],
        ["course", `/courses/${course.id}`],
        ["units", "/units"],
        ["unit", `/units/${unit.id}`],
        ["study-plans", "/study-plans"],
        ["study-plan", `/study-plans/${plan.id}`],
        ["block-groups", "/block-groups"],
        ["block-group", `/block-groups/${group.id}`],
        ["linked-groups", "/linked-block-groups"],
        ["teachers", "/teachers"],
        ["teacher", `/teachers/${teacher.id}`],
        ["allocation-grid", "/teacher-allocation-gantt"],
        ["timetables", "/timetables"],
        ["holidays", "/holidays"],
        ["rooms", "/rooms"],
        ["reports", "/reports"],
        ["profile", "/profile"],
        ["settings", "/settings"],
        ["activity", "/activity"],
        ["organization", "/organization"],
        ["not-found", "/no-such-page"],
      ];
      for (const [name, path] of routes) {
        await page.goto(`${BASE_URL}${path}`);
        await page.locator("main h1, main h2").first().waitFor();
        await page.waitForLoadState("networkidle");
        await audit(page, theme, name);
      }
      await page.goto(`${BASE_URL}/reports`);
      for (const tab of await page.getByRole("tab").allInnerTexts()) {
        await page.getByRole("tab", { name: tab }).click();
        await page.waitForLoadState("networkidle");
        await audit(page, theme, `reports-${tab}`);
      }

      const link = await apiCall(page, "POST", "/api/display-links", { name: `Axe ${theme}`, groupBy: "room" });
      assert.equal(link.status, 201);
      const board = await pageInTheme(theme);
      try {
        await board.page.goto(new URL(link.json.url, BASE_URL).href.replace(/^https?:\/\/[^/]+/, BASE_URL));
        await board.page.getByText(link.json.name).first().waitFor();
        await board.page.waitForLoadState("networkidle");
        const violations = await seriousA11yViolations(board.page);
        assert.deepEqual(violations, [], `the wall display in the ${theme} theme`);
      } finally {
        await board.context.close();
      }
    } finally {
      await ctx.context.close();
    }
  });
}
