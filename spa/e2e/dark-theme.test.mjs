// Issue 18 (dark theme reads): the main screens, with their badges, holiday cards and conflict tags, reach
// WCAG AA contrast in the dark theme as in the light one (axe-core in Chromium, serious or critical
// violations, colour contrast included).
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, apiLogin, launch, newPage, openTimetable, screenshot, seriousA11yViolations } from "./lib.mjs";

let browser;
const contexts = {};

before(async () => {
  browser = await launch();
  for (const theme of ["light", "dark"]) {
    const ctx = await newPage(browser);
    await ctx.context.addInitScript((value) => window.localStorage.setItem("blockplan-theme", value), theme);
    await apiLogin(ctx.page, DEMO.coordinator);
    contexts[theme] = ctx;
  }
});
after(async () => {
  for (const ctx of Object.values(contexts)) await ctx.context.close();
  await browser?.close();
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
