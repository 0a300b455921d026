// The hardening work (ADR 0005): an admin invites a coordinator, copies the invitation link, and the coordinator sets
// up password and TOTP through it; the same flow without the token (email only) gets nowhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, browserForFile, newPage } from "./lib.mjs";
import { PASSWORD, captureScreen, fillSignIn, freshCode, markUsed, uniqueEmail, waitForShell } from "./platform-helpers.mjs";

const shared = browserForFile();

test("an admin invites a coordinator who sets up the account through the copied link; without it nothing opens", async () => {
  // The admin adds the coordinator on the Organization page and copies the link shown.
  const admin = await newPage(shared.browser);
  await admin.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  await admin.page.goto(`${BASE_URL}/auth`);
  await fillSignIn(admin.page, DEMO.admin);
  await waitForShell(admin.page);
  await admin.page.goto(`${BASE_URL}/organization`);
  await admin.page.getByRole("button", { name: "Add User" }).first().click();
  const email = uniqueEmail("invited");
  const dialog = admin.page.getByRole("dialog", { name: "Add User" });
  await dialog.getByLabel("First Name").fill("Ivy");
  await dialog.getByLabel("Last Name").fill("Invited");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Add User" }).click();
  const shown = admin.page.getByRole("dialog", { name: "Invitation link" });
  await shown.waitFor();
  const link = await shown.getByLabel("Invitation link").inputValue();
  assert.match(link, new RegExp(`^${BASE_URL}/auth/setup\\?token=[A-Za-z0-9_-]{43,}$`));
  await shown.getByRole("button", { name: "Copy link" }).click();
  await shown.getByRole("button", { name: "Copied" }).waitFor();
  const copied = await admin.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, link);
  await captureScreen(admin.page, "invitation-link-shown");
  await shown.getByRole("button", { name: "Done" }).click();
  // The list offers a new link while the account is not set up.
  await admin.page.getByRole("button", { name: "New invitation link for Ivy Invited" }).waitFor();

  // Without the token: the first-time page finds nothing for the email, and sign-in fails.
  const stranger = await newPage(shared.browser);
  await stranger.page.goto(`${BASE_URL}/first-time`);
  await stranger.page.getByLabel("Email").fill(email);
  await stranger.page.getByRole("button", { name: "Continue" }).click();
  await stranger.page.getByText("Account lookup failed").waitFor();
  assert.equal(await stranger.page.getByRole("heading", { name: "Secure Your Account" }).count(), 0);
  await stranger.page.goto(`${BASE_URL}/auth/setup?token=not-the-token`);
  await stranger.page.getByText("Invitation not valid").waitFor();
  await stranger.page.goto(`${BASE_URL}/auth`);
  await fillSignIn(stranger.page, { email, password: PASSWORD });
  await stranger.page.getByText("Login failed").waitFor();
  await stranger.context.close();

  // With the link: the coordinator sets up password and TOTP and is signed in.
  const invitee = await newPage(shared.browser);
  await invitee.page.goto(copied);
  await invitee.page.getByRole("heading", { name: "Secure Your Account" }).waitFor();
  const secret = (await invitee.page.getByTestId("manual-entry-key").innerText()).trim();
  await invitee.page.locator('input[name="password"]').fill(PASSWORD);
  await invitee.page.getByLabel("Confirm Password").fill(PASSWORD);
  const code = await freshCode(secret);
  await invitee.page.getByLabel("Authenticator Code").fill(code);
  await invitee.page.getByRole("button", { name: "Complete Setup" }).click();
  await waitForShell(invitee.page);
  markUsed(secret, code);
  await invitee.context.close();

  // The link was single use.
  const again = await newPage(shared.browser);
  await again.page.goto(link);
  await again.page.getByText("Invitation not valid").waitFor();
  await again.context.close();
  await admin.context.close();
});
