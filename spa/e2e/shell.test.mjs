// The application shell, guards, 404, search, live indicator, sign-out and the 401 redirect (docs/behaviour/screens.md §2; docs/behaviour/errors.md §9).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, apiLogin, browserForFile, newPage, signedInPage } from "./lib.mjs";
import { captureScreen, openInShell } from "./platform-helpers.mjs";

const shared = browserForFile();

test("admin shell: navigation, collapsible sidebar, quick actions, user menu and live indicator", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  await openInShell(page, "/");
  const nav = page.getByRole("navigation", { name: "Primary" });
  for (const label of [
    "Dashboard",
    "Courses",
    "Units of Competency",
    "Study Plans",
    "Block Groups",
    "Linked Groups",
    "Teachers",
    "Teacher Allocation",
    "Timetables",
    "Holidays",
    "Reports",
  ]) {
    await nav.getByRole("link", { name: label, exact: true }).waitFor();
  }
  await page.getByTestId("live-status").and(page.locator('[data-status="connected"]')).waitFor({ timeout: 10000 });
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).first().waitFor(); // the header's title, and the page's once it renders
  await page.getByText("Cyber Security & Digital Technologies Department").first().waitFor();

  // The sidebar starts expanded (256 px) and collapses to 64 px.
  const navbar = page.locator(".mantine-AppShell-navbar");
  assert.equal(Math.round((await navbar.boundingBox()).width), 256);
  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await page.waitForFunction(() => Math.round(document.querySelector(".mantine-AppShell-navbar").getBoundingClientRect().width) === 64);
  await captureScreen(page, "shell-sidebar-collapsed");
  await page.getByRole("button", { name: "Expand sidebar" }).click();

  // Sidebar quick actions and the header dropdown go where their names say.
  await page.getByRole("button", { name: "Add Teacher" }).click();
  await page.waitForURL(/\/teachers$/);
  await page.getByRole("button", { name: "Quick Actions" }).click();
  await page.getByRole("menuitem", { name: "Schedule Session" }).click();
  await page.waitForURL(/\/timetables$/);

  // User menu: initial, name, email, role label, admin items.
  await page.getByTestId("user-menu").click();
  const menu = page.getByRole("menu");
  await menu.getByText(DEMO.admin.email).waitFor();
  await menu.getByText("Administrator").waitFor();
  await menu.getByRole("menuitem", { name: "Organization" }).waitFor();
  await menu.getByRole("menuitem", { name: "Settings" }).click();
  await page.waitForURL(/\/settings$/);
  await context.close();
});

test("header search finds a course as you type and opens it", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  const courses = await apiCall(page, "GET", "/api/courses");
  assert.equal(courses.status, 200);
  const list = Array.isArray(courses.json) ? courses.json : (courses.json.items ?? courses.json.results);
  assert.ok(list.length > 0, "the demo data has courses");
  const course = list[0];
  await openInShell(page, "/");
  const search = page.getByPlaceholder("Search courses, teachers, units...");
  await search.click();
  await search.fill(course.code.slice(0, -1));
  const option = page.getByRole("option").filter({ hasText: course.code }).first();
  await option.waitFor();
  await captureScreen(page, "shell-search");
  await option.click();
  await page.waitForURL(new RegExp(`/courses/${course.id}$`));
  await context.close();
});

test("a member sees Access Denied on admin pages and no admin entries", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  await openInShell(page, "/");
  const nav = page.getByRole("navigation", { name: "Primary" });
  await nav.getByRole("link", { name: "Teachers", exact: true }).waitFor();
  assert.equal(await nav.getByRole("link", { name: "Teacher Allocation" }).count(), 0);
  await page.getByTestId("user-menu").click();
  await page.getByRole("menu").getByText("Organization Member").waitFor();
  assert.equal(await page.getByRole("menuitem", { name: "Organization" }).count(), 0);
  await page.keyboard.press("Escape");

  await nav.getByRole("link", { name: "Courses", exact: true }).click();
  await page.waitForURL(/\/courses$/);
  await page.goto(`${BASE_URL}/teacher-allocation-gantt`);
  await page.getByRole("heading", { name: "Access Denied" }).waitFor();
  await page.getByText("This page is restricted to administrators only. Please contact your system administrator if you need access.").waitFor();
  await captureScreen(page, "shell-access-denied");

  await page.goto(`${BASE_URL}/organization`);
  await page.getByText("You don't have permission to access organization management.").waitFor();
  await page.getByRole("button", { name: "Go Back" }).click();
  await page.waitForURL(/\/teacher-allocation-gantt$/);
  await context.close();
});

test("unknown paths show the 404 page", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  await page.goto(`${BASE_URL}/no-such-page`);
  await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  await captureScreen(page, "shell-not-found");
  await context.close();
});

test("signed-out visitors go to /auth; the sidebar sign-out and the menu's Log out end the session", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/settings`);
  await page.waitForURL(/\/auth$/);

  await apiLogin(page, DEMO.admin);
  await openInShell(page, "/");
  await page.getByTestId("sidebar-sign-out").click();
  await page.waitForURL(/\/auth$/);
  const who = await apiCall(page, "GET", "/api/auth/user");
  assert.equal(who.status, 401);

  await apiLogin(page, DEMO.admin);
  await openInShell(page, "/profile");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await page.waitForURL(/\/auth$/);
  await page.getByText("You have been logged out successfully.").waitFor();
  await page.goto(`${BASE_URL}/`);
  await page.waitForURL(/\/auth$/);
  await context.close();
});

test("a 401 on a data call sends the user to sign-in after about half a second", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  await openInShell(page, "/");
  await page.getByTestId("live-status").and(page.locator('[data-status="connected"]')).waitFor({ timeout: 10000 });
  await page.waitForLoadState("networkidle");
  // The session ends behind the SPA's back.
  await context.clearCookies();
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Organization" }).click();
  const started = Date.now();
  await page.waitForURL(/\/auth$/, { timeout: 10000 });
  assert.ok(Date.now() - started < 5000);
  await context.close();
});
