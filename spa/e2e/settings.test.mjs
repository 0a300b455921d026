// Settings (docs/behaviour/accounts.md §8): theme and preferences autosaved and surviving a reload, export, Danger Zone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, browserForFile, newPage, signedInPage } from "./lib.mjs";
import { apiLoginTotp, captureScreen, newUserSignedIn, openInShell, waitForShell } from "./platform-helpers.mjs";

const shared = browserForFile();

test("theme, date format and compact view are saved automatically and survive a reload", async () => {
  const { user, context, page } = await newUserSignedIn(shared.browser, { prefix: "settings", role: "admin", firstName: "Sam", lastName: "Settings" });
  const before = await apiCall(page, "GET", "/api/auth/settings");
  assert.equal(before.status, 404); // nothing saved yet: the defaults apply
  await openInShell(page, "/settings");
  await page.getByRole("heading", { name: "Danger Zone" }).waitFor();
  await captureScreen(page, "settings");

  await page.getByText("Dark", { exact: true }).click();
  await page.waitForFunction(() => document.documentElement.getAttribute("data-mantine-color-scheme") === "dark");
  assert.equal(await page.evaluate(() => localStorage.getItem("blockplan-theme")), "dark");
  await page
    .getByRole("textbox", { name: "Date format" })
    .or(page.getByRole("combobox", { name: "Date format" }))
    .click();
  await page.getByRole("option", { name: "YYYY-MM-DD" }).click();
  await page.getByRole("switch", { name: /Compact view/ }).click({ force: true });
  await page.getByText("Settings saved").waitFor();
  await page.waitForTimeout(800);
  const saved = await apiCall(page, "GET", "/api/auth/settings");
  assert.equal(saved.status, 200);
  assert.equal(saved.json.theme, "dark");
  assert.equal(saved.json.preferences.dateFormat, "YYYY-MM-DD");
  assert.equal(saved.json.preferences.compactView, true);
  await captureScreen(page, "settings-dark");

  await page.reload();
  await waitForShell(page);
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-mantine-color-scheme")), "dark");
  assert.equal(
    await page
      .getByRole("textbox", { name: "Date format" })
      .or(page.getByRole("combobox", { name: "Date format" }))
      .inputValue(),
    "YYYY-MM-DD",
  );
  assert.equal(await page.getByRole("switch", { name: /Compact view/ }).isChecked(), true);

  // The formats apply to the screens (ADR 0018): the timetable's dates read YYYY-MM-DD; with the
  // 12 hour format its times read "9:00 am".
  await page
    .getByRole("textbox", { name: "Time format" })
    .or(page.getByRole("combobox", { name: "Time format" }))
    .click();
  await page.getByRole("option", { name: /12 hour/ }).click();
  await page.getByText("Settings saved").last().waitFor();
  await page.waitForTimeout(800);
  await page.goto(`${BASE_URL}/timetables`);
  await page.getByLabel("Hide past sessions").uncheck();
  const row = page.getByTestId("session-row").first();
  await row.waitFor();
  const text = await row.innerText();
  assert.match(text, /\b\d{4}-\d{2}-\d{2}\b/);
  assert.match(text, /\b\d{1,2}:\d{2} (am|pm) - \d{1,2}:\d{2} (am|pm)\b/);
  // The sidebar footer names the user's real role (the original "Administrator for everyone" overridden).
  assert.equal(await page.getByTestId("sidebar-role").innerText(), "Administrator");
  await page.goto(`${BASE_URL}/settings`);
  await page.getByRole("heading", { name: "Danger Zone" }).waitFor();

  // Export: a JSON file named with the current date.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export your data" }).click();
  const file = await download;
  assert.match(file.suggestedFilename(), /^blockplan-export-\d{4}-\d{2}-\d{2}\.json$/);
  await page.getByText("Data exported").waitFor();

  // Another browser (no local storage) picks the saved theme up after sign-in.
  const other = await newPage(shared.browser);
  await apiLoginTotp(other.page, user);
  await openInShell(other.page, "/");
  await other.page.waitForFunction(() => document.documentElement.getAttribute("data-mantine-color-scheme") === "dark");
  await other.context.close();

  // Back to light for later screens.
  await page.getByText("Light", { exact: true }).click();
  await page.waitForFunction(() => document.documentElement.getAttribute("data-mantine-color-scheme") === "light");
  await context.close();
});

test("members do not see the Danger Zone", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  await page.goto(`${BASE_URL}/settings`);
  await page.getByRole("heading", { name: "Regional & Language" }).waitFor();
  assert.equal(await page.getByRole("heading", { name: "Danger Zone" }).count(), 0);
  assert.equal(await page.getByTestId("sidebar-role").innerText(), "Organization Member");
  await context.close();
});
