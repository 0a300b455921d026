// Profile (docs/behaviour/screens.md §4): names, change password, 2FA status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, browserForFile, newPage } from "./lib.mjs";
import { captureScreen, fillSignIn, freshCode, markUsed, newUserSignedIn, openInShell, waitForShell } from "./platform-helpers.mjs";

const shared = browserForFile();

test("edit names, see 2FA enabled, change the password and sign in with the new one", async () => {
  const { user, context, page } = await newUserSignedIn(shared.browser, { prefix: "profile", firstName: "Priya", lastName: "Profile" });
  await openInShell(page, "/profile");
  await page.getByRole("heading", { name: "Priya Profile" }).waitFor();
  await page.getByText("2FA Enabled").first().waitFor();
  await page.getByText("Cannot be changed").waitFor();
  await page.getByRole("main").getByText("Organization Member").waitFor();
  await captureScreen(page, "profile");

  await page.getByRole("button", { name: "Edit Profile" }).click();
  await page.getByLabel("First Name").fill("Priyanka");
  await page.getByLabel("Last Name").fill("");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.getByText("Profile updated").waitFor();
  await page.getByRole("button", { name: "Edit Profile" }).waitFor(); // back in read mode
  await page.getByText("Not provided").waitFor();
  await page.getByRole("heading", { name: "Priyanka", exact: true }).waitFor();
  assert.equal(await page.getByTestId("sidebar-user").innerText(), "Priyanka");

  await page.getByRole("button", { name: "Change Password" }).click();
  const dialog = page.getByRole("dialog", { name: "Change Password" });
  const submit = dialog.getByRole("button", { name: "Change Password" });
  assert.equal(await submit.isDisabled(), true);
  await dialog.getByLabel("Current Password").fill(user.password);
  await dialog.getByLabel("New Password", { exact: true }).fill("Short-1!");
  await dialog.getByLabel("Confirm New Password").fill("Short-1!");
  await submit.click();
  await dialog.getByText("Password must be at least 12 characters long.").waitFor();
  await captureScreen(page, "profile-change-password");
  const newPassword = "Another-Strong-Pass-7";
  await dialog.getByLabel("New Password", { exact: true }).fill(newPassword);
  await dialog.getByLabel("Confirm New Password").fill(newPassword);
  await submit.click();
  await page.getByText("Your password has been updated successfully.").waitFor();
  await context.close();

  const second = await newPage(shared.browser);
  await second.page.goto(`${BASE_URL}/auth`);
  await fillSignIn(second.page, { email: user.email, password: newPassword });
  const code = await freshCode(user.secret);
  await second.page.getByLabel("Authenticator Code").fill(code);
  await second.page.getByRole("button", { name: "Verify & Sign In" }).click();
  await waitForShell(second.page);
  markUsed(user.secret, code);
  await second.context.close();
});

test("reset the authenticator, then enable two-factor authentication with a new QR code", async () => {
  const { user, context, page } = await newUserSignedIn(shared.browser, { prefix: "totpreset", firstName: "Tess", lastName: "Totp" });
  await openInShell(page, "/profile");
  await page.getByRole("button", { name: "Reset Authenticator" }).click();
  await page.getByRole("dialog", { name: "Reset two-factor authentication" }).getByRole("button", { name: "Reset" }).click();
  // The sign-in alone does not allow a credential change (ADR 0006): confirm with the password first.
  const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
  await confirm.getByLabel("Current Password").fill("wrong-password");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await confirm.getByText("Password is incorrect").waitFor();
  await confirm.getByLabel("Current Password").fill(user.password);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("Please scan the new QR code to re-enable TOTP.").waitFor();
  await page.getByTestId("totp-status").getByText("Disabled").waitFor();
  const dialog = page.getByRole("dialog", { name: "Enable Two-Factor Authentication" });
  const key = (await dialog.getByTestId("manual-entry-key").innerText()).trim();
  await captureScreen(page, "profile-enable-totp");
  const code = await freshCode(key);
  await dialog.getByLabel("Authenticator Code").fill(code);
  await dialog.getByRole("button", { name: "Enable" }).click();
  await page.getByText("Two-factor authentication is now active.").waitFor();
  await page.getByTestId("totp-status").getByText("2FA Enabled").waitFor();
  await context.close();
});
