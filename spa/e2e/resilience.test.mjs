// The coordinator screens work (ADR 0016; errors that recover, offline is visible, a missing record says so): offline, the shell shows a
// banner; a screen whose code is not loaded yet shows a plain message with Retry inside the shell (not
// React Router's developer page) and loads by itself when the connection returns; a record that does not
// exist says "not found" with a way back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, browserForFile, signedInPage } from "./lib.mjs";

let ctx;

browserForFile(async (browser) => {
  ctx = await signedInPage(browser, DEMO.coordinator);
});

test("offline: a banner, a screen that cannot load says so in the shell and recovers when back online", async () => {
  const { page, context } = ctx;
  await page.goto(`${BASE_URL}/`);
  await page.getByTestId("live-status").and(page.locator('[data-status="connected"]')).waitFor({ timeout: 15000 });
  assert.equal(await page.getByTestId("offline-banner").count(), 0);

  await context.setOffline(true);
  await page.getByTestId("offline-banner").waitFor({ timeout: 10000 });
  assert.match(await page.getByTestId("offline-banner").textContent(), /may be out of date; it will refresh when the connection returns/);

  // The Reports screen's code has not been loaded in this tab: it cannot be fetched offline.
  await page.getByRole("link", { name: "Reports" }).first().click();
  const error = page.getByTestId("route-error");
  await error.waitFor({ timeout: 10000 });
  assert.match(await error.textContent(), /You are offline/);
  assert.equal(await page.getByText("Unexpected Application Error").count(), 0);
  assert.ok(await page.getByRole("button", { name: "Retry" }).isVisible());
  assert.ok(await page.getByRole("link", { name: "Dashboard" }).first().isVisible()); // the shell is still there

  await context.setOffline(false);
  await page.getByRole("heading", { name: "Reports", exact: true }).first().waitFor({ timeout: 20000 });
  await page.getByTestId("offline-banner").waitFor({ state: "detached", timeout: 20000 });
});

test("a record that does not exist says not found, with a way back", async () => {
  const { page } = ctx;
  await page.goto(`${BASE_URL}/teachers/00000000-0000-4000-8000-000000000000`);
  const notFound = page.getByTestId("record-not-found");
  await notFound.waitFor({ timeout: 10000 });
  assert.match(await notFound.textContent(), /Teacher not found/);
  await notFound.getByRole("link", { name: "Back to Teachers" }).click();
  await page.waitForURL(`${BASE_URL}/teachers`);
});

test("a failed save's red message goes when the retry succeeds (feedback that tells the truth)", async () => {
  const { page } = ctx;
  const taken = (await apiCall(page, "GET", "/api/courses")).json[0].code;
  await page.goto(`${BASE_URL}/courses`);
  await page.getByRole("button", { name: "Add Course" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Course" });
  await dialog.getByLabel("Code").fill(taken);
  await dialog.getByLabel("Name").fill(`Retry course ${Date.now()}`);
  await dialog.getByRole("button", { name: "Create Course" }).click();
  const failed = page.locator(".mantine-Notification-root").filter({ hasText: "Course Code Already Exists" });
  await failed.waitFor();
  await dialog.getByLabel("Code").fill(`RTY${Date.now().toString().slice(-6)}`);
  await dialog.getByRole("button", { name: "Create Course" }).click();
  await page.locator(".mantine-Notification-root").filter({ hasText: "Course created successfully" }).waitFor();
  // The error of the action that then succeeded is gone at once, not after its 9 s.
  await failed.waitFor({ state: "detached", timeout: 2000 });
});
