// Organization management (docs/behaviour/screens.md §5): details dialog, users with add and deactivate, live updates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEMO, apiCall, browserForFile, signedInPage } from "./lib.mjs";
import { captureScreen, openInShell, uniqueEmail } from "./platform-helpers.mjs";

const shared = browserForFile();

test("edit the organization's details with validation", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  await openInShell(page, "/organization");
  await page.getByRole("heading", { name: "Organization Details" }).waitFor();
  await page.getByRole("heading", { name: /^Users \(\d+\)$/ }).waitFor();
  await page.waitForLoadState("networkidle");
  await captureScreen(page, "organization");

  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Organization" });
  const name = dialog.getByLabel(/Organization Name/);
  const original = await name.inputValue();
  await name.fill("");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await dialog.getByText("Organization name is required").waitFor();
  await dialog.getByText("Users with this domain in their email can join the organization").waitFor();
  await captureScreen(page, "organization-edit");
  await name.fill(original);
  await dialog.getByLabel("Phone").fill("03 9000 1234");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await page.getByText("Organization updated successfully").waitFor();
  await page.getByText("03 9000 1234").waitFor();
  await context.close();
});

test("add a user, then deactivate them after confirmation", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  await openInShell(page, "/organization");
  await page.getByRole("button", { name: "Add User" }).click();
  const dialog = page.getByRole("dialog", { name: "Add User" });
  await dialog.getByRole("button", { name: "Add User" }).click();
  await dialog.getByText("First name is required").waitFor();
  await dialog.getByText("Last name is required").waitFor();
  await dialog.getByText("Please enter a valid email address").waitFor();
  const email = uniqueEmail("orguser");
  await dialog.getByLabel(/First Name/).fill("Olive");
  await dialog.getByLabel(/Last Name/).fill("Org");
  await dialog.getByLabel(/Email/).fill(email);
  await dialog.getByRole("button", { name: "Add User" }).click();
  await page.getByText("User added successfully").waitFor();
  // The invitation link is shown once (ADR 0005); the admin closes it.
  const invitation = page.getByRole("dialog", { name: "Invitation link" });
  assert.match(await invitation.getByLabel("Invitation link").inputValue(), /\/auth\/setup\?token=/);
  await invitation.getByRole("button", { name: "Done" }).click();
  await invitation.waitFor({ state: "hidden" });
  const row = page.locator(`[data-email="${email}"]`);
  await row.getByText("Olive Org").waitFor();
  await row.getByText("User", { exact: true }).waitFor();

  // The admin's own row has no Deactivate button.
  assert.equal(
    await page
      .locator(`[data-email="${DEMO.admin.email}"]`)
      .getByRole("button", { name: /Deactivate/ })
      .count(),
    0,
  );

  await row.getByRole("button", { name: /Deactivate/ }).click();
  const confirm = page.getByRole("dialog", { name: "Deactivate User" });
  await confirm.getByText("Are you sure you want to deactivate the user? They will no longer be able to access the system.").waitFor();
  await captureScreen(page, "organization-deactivate");
  await confirm.getByRole("button", { name: "Deactivate" }).click();
  await page.getByText("User deactivated successfully").waitFor();
  await row.getByText("Inactive").waitFor();
  assert.equal(await row.getByRole("button", { name: /Deactivate/ }).count(), 0);
  await context.close();
});

test("another admin's change reaches an open page through the live-update socket", async () => {
  const viewer = await signedInPage(shared.browser, DEMO.admin);
  await openInShell(viewer.page, "/organization");
  await viewer.page.getByTestId("live-status").and(viewer.page.locator('[data-status="connected"]')).waitFor({ timeout: 10000 });
  const phone = `03 9${Math.floor(Math.random() * 1e7)
    .toString()
    .padStart(7, "0")}`;

  const editor = await signedInPage(shared.browser, DEMO.admin);
  const org = await apiCall(editor.page, "GET", "/api/organization");
  const put = await apiCall(editor.page, "PUT", "/api/organization", {
    name: org.json.name,
    domain: org.json.domain,
    address: org.json.address,
    phone,
    website: org.json.website,
  });
  assert.equal(put.status, 200, put.text);
  await viewer.page.getByText(phone).waitFor({ timeout: 5000 });
  await viewer.context.close();
  await editor.context.close();
});
