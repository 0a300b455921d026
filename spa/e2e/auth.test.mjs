// Sign-in, first-time setup, TOTP and passkeys in real Chromium (docs/behaviour/accounts.md §4).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, browserForFile, newPage } from "./lib.mjs";
import { PASSWORD, addUser, apiLoginTotp, captureScreen, fillSignIn, freshCode, markUsed, readyUser, waitForShell } from "./platform-helpers.mjs";

const shared = browserForFile();

test("password sign-in as the demo admin lands on the dashboard", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/`);
  await page.waitForURL(/\/auth$/);
  await page.getByText("Enter your email and password to access the scheduling system").waitFor();
  await captureScreen(page, "auth-sign-in");

  // Validation messages (docs/behaviour/accounts.md §2, §5).
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.getByText("Invalid email address").waitFor();
  await page.getByText("Password is required").waitFor();

  await fillSignIn(page, DEMO.admin);
  await waitForShell(page);
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByText("Login successful").waitFor();
  // Signed in: /auth redirects to /.
  await page.goto(`${BASE_URL}/auth`);
  await page.waitForURL(`${BASE_URL}/`);
  await context.close();
});

test("a wrong password shows 'Login failed' with the server message", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/auth`);
  await fillSignIn(page, { email: DEMO.admin.email, password: "not-the-password" });
  await page.getByText("Login failed").waitFor();
  assert.equal(new URL(page.url()).pathname, "/auth");
  await context.close();
});

test("first-time setup from the invitation link with a TOTP code computed in the test, then sign-in with TOTP", async () => {
  const user = await addUser(shared.browser, { prefix: "firsttime", firstName: "Fiona", lastName: "First" });
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/auth`);
  await page.getByRole("button", { name: "First time logging in?" }).click();
  await page.waitForURL(/\/setup$/);
  await page.getByRole("heading", { name: "First Time Setup" }).waitFor();
  await captureScreen(page, "auth-first-time-step1");

  // The invitation link the admin was shown (ADR 0005) opens step two directly.
  assert.match(user.link, /\/auth\/setup\?token=[A-Za-z0-9_-]{43,}$/);
  await page.goto(user.link);
  await page.getByRole("heading", { name: "Secure Your Account" }).waitFor();
  const qr = page.getByTestId("totp-qr");
  await qr.waitFor();
  const src = await qr.getAttribute("src");
  assert.match(src, /^data:image\//);
  const box = await qr.boundingBox();
  assert.equal(Math.round(box.width), 256);
  const secret = (await page.getByTestId("manual-entry-key").innerText()).trim();
  assert.match(secret, /^[A-Z2-7]+=*$/);
  await captureScreen(page, "auth-first-time-step2");

  // Validation of the setup form.
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await page.getByText("Password must be at least 12 characters").waitFor();
  await page.getByText("TOTP code must be 6 digits").waitFor();

  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  const code = await freshCode(secret);
  await page.getByLabel("Authenticator Code").fill(`${code}xx`);
  assert.equal(await page.getByLabel("Authenticator Code").inputValue(), code); // digits only, at most 6
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await waitForShell(page);
  await page.getByText("Setup complete").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  await context.close();

  // Sign in again: the code field appears after the password.
  const second = await newPage(shared.browser);
  await second.page.goto(`${BASE_URL}/auth`);
  await fillSignIn(second.page, { email: user.email, password: PASSWORD });
  const codeField = second.page.getByLabel("Authenticator Code");
  await codeField.waitFor();
  await second.page.getByRole("button", { name: "Verify & Sign In" }).waitFor();
  await captureScreen(second.page, "auth-sign-in-totp");
  const next = await freshCode(secret);
  await codeField.fill(next);
  await second.page.getByRole("button", { name: "Verify & Sign In" }).click();
  await waitForShell(second.page);
  assert.equal(new URL(second.page.url()).pathname, "/");
  markUsed(secret, next);
  await second.context.close();
});

test("the first-time check refuses an unknown email", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/first-time`);
  await page.getByLabel("Email").fill("nobody-here@demo.blockplan.edu.au");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText("Account lookup failed").waitFor();
  await page.getByText("No account found with this email address. Please contact your administrator.").waitFor();
  await context.close();
});

test("a passkey registered on the profile signs the user in (virtual authenticator)", async () => {
  const user = await readyUser(shared.browser, { prefix: "passkey", firstName: "Pat", lastName: "Key" });
  const { context, page } = await newPage(shared.browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });

  // No passkey yet: the passkey tab says so.
  await page.goto(`${BASE_URL}/auth`);
  await page.getByRole("tab", { name: "Passkey" }).click();
  await page.getByRole("button", { name: "Back to Password Login" }).waitFor();
  await captureScreen(page, "auth-passkey-tab");
  await page.getByRole("button", { name: "Sign in with Passkey" }).click();
  await page
    .getByText(/No passkeys found|Passkey login failed/)
    .first()
    .waitFor();

  await apiLoginTotp(page, user);
  await page.goto(`${BASE_URL}/profile`);
  await page.getByRole("button", { name: "Add Passkey" }).click();
  await page.getByLabel("Device Name").fill("E2E virtual key");
  await page.getByRole("button", { name: "Register Passkey" }).click();
  // Registering a passkey needs a recent confirmation of identity (ADR 0006): here an authenticator code.
  const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
  await confirm.getByRole("button", { name: "Use an authenticator code instead" }).click();
  const confirmCode = await freshCode(user.secret);
  await confirm.getByLabel("Authenticator Code").fill(confirmCode);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  markUsed(user.secret, confirmCode);
  await page.getByText("Passkey registered").waitFor();
  await page.getByTestId("passkey-list").getByText("E2E virtual key").waitFor();
  await page.getByTestId("passkey-list").getByText("Unused").waitFor();

  // Sign out, then sign in with the passkey.
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await page.waitForURL(/\/auth$/);
  await page.getByRole("tab", { name: "Passkey" }).click();
  await page.getByRole("button", { name: "Sign in with Passkey" }).click();
  await waitForShell(page);
  await page.getByText("Welcome back! You've been authenticated with your passkey.").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");

  // The passkey is now used, and can be deleted.
  await page.goto(`${BASE_URL}/profile`);
  const list = page.getByTestId("passkey-list");
  await list.getByText(/Last used/).waitFor();
  await page.getByRole("button", { name: "Delete passkey E2E virtual key" }).click();
  await page.getByText("Passkey deleted").waitFor();
  await page.getByText(/No passkeys registered yet/).waitFor();
  await context.close();
});
