// The dashboard (docs/behaviour/screens.md §3): stat cards, planner navigation, workload, upcoming sessions, actions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEMO, apiCall, browserForFile, signedInPage } from "./lib.mjs";
import { captureScreen, openInShell } from "./platform-helpers.mjs";

const shared = browserForFile();

test("the dashboard shows its cards, planner, workload and upcoming sessions", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  await openInShell(page, "/");
  for (const label of ["Active Courses", "Active Teachers", "Block Groups", "Weekly Hours"]) {
    await page.getByTestId(`stat-${label}`).waitFor();
  }
  await page.getByText("Average efficiency").waitFor();
  // The first three cards show the change against 30 days ago from the data (ADR 0018), not fixed numbers.
  const stats = (await apiCall(page, "GET", "/api/dashboard/stats")).json;
  const courses = page.getByTestId("trend-Active Courses");
  await courses.waitFor();
  const [now, before] = [stats.activeCourses, stats.thirtyDaysAgo.activeCourses];
  const expected =
    now === before
      ? "No change in 30 days"
      : !before
        ? `+${now} in the last 30 days`
        : `${now > before ? "+" : ""}${Math.round(((now - before) / before) * 100)}% from 30 days ago`;
  assert.equal(await courses.innerText(), expected);
  await page.getByRole("heading", { name: "Teacher Allocation Planner" }).waitFor();
  await page.getByText("Teachers Not Scheduled").waitFor();
  await page.getByRole("heading", { name: "Teacher Workload" }).waitFor();
  await page.getByRole("heading", { name: "Upcoming Sessions" }).waitFor();
  await page.waitForLoadState("networkidle");
  await captureScreen(page, "dashboard");

  // Planner: Monday weeks, previous/next, Today, month view.
  const range = page.getByTestId("planner-range");
  const thisWeek = await range.innerText();
  await page.getByRole("button", { name: "Next week" }).click();
  await page.waitForFunction((before) => document.querySelector('[data-testid="planner-range"]').textContent !== before, thisWeek);
  await page.getByRole("button", { name: "Today" }).click();
  await page.waitForFunction((before) => document.querySelector('[data-testid="planner-range"]').textContent === before, thisWeek);
  const firstCell = await page.locator("#allocation-planner [data-date]").first().getAttribute("data-date");
  assert.equal(new Date(`${firstCell}T00:00:00`).getDay(), 1, "weeks start on Monday");
  await page.getByText("Month", { exact: true }).click();
  await page.waitForFunction(() => /^[A-Z][a-z]+ \d{4}$/.test(document.querySelector('[data-testid="planner-range"]').textContent));
  await page.getByRole("button", { name: "Previous month" }).click();
  await captureScreen(page, "dashboard-month");

  // Week View returns the planner to its week; the action buttons go where their names say.
  await page.getByRole("button", { name: "Week View" }).click();
  await page.getByRole("button", { name: "Next week" }).waitFor();
  await page.getByRole("button", { name: "View All Teachers" }).click();
  await page.waitForURL(/\/teachers$/);
  await page.goBack();
  await page.getByRole("button", { name: "View Reports" }).click();
  await page.waitForURL(/\/reports$/);
  await page.goBack();
  await page.getByRole("button", { name: "Generate Timetable" }).first().click();
  await page.waitForURL(/\/block-groups\?schedule=1$/);
  await context.close();
});
