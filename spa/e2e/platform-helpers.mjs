// Helpers of the platform browser tests: users made through the API as the demo admin, TOTP
// codes computed with otpauth, sign-in through the UI. Used by auth, shell, dashboard, profile, settings
// and organization tests.
import { TOTP, Secret } from "otpauth";
import { BASE_URL, DEMO, apiCall, newPage, postLogin, screenshotAndAudit, signedInPage } from "./lib.mjs";
import assert from "node:assert/strict";

export const PASSWORD = "Correct-Horse-42!";

/** A unique email for this run. */
export function uniqueEmail(prefix) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@demo.blockplan.edu.au`;
}

/** Adds a user through POST /api/admin/users as the demo admin; answers {id, email, role, link, token}
 * (the invitation link the admin is shown, and its token). */
export async function addUser(browser, { role = "user", firstName = "Test", lastName = "User", prefix = "e2e" } = {}) {
  const { context, page } = await signedInPage(browser, DEMO.admin);
  try {
    const email = uniqueEmail(prefix);
    const r = await apiCall(page, "POST", "/api/admin/users", { firstName, lastName, email, role });
    assert.equal(r.status, 201, `add user: ${r.status} ${r.text}`);
    const link = r.json.invitationLink;
    return { id: r.json.id, email, role, firstName, lastName, link, token: new URL(link).searchParams.get("token") };
  } finally {
    await context.close();
  }
}

const lastStep = new Map();

/** A TOTP code the server has not seen yet for this secret (steps: now, then now+1; waits when both are used). */
export async function freshCode(secret) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 });
  for (;;) {
    const now = Math.floor(Date.now() / 1000 / 30);
    const used = lastStep.get(secret) ?? -1;
    const step = Math.max(now, used + 1);
    if (step <= now + 1) {
      lastStep.set(secret, step);
      return totp.generate({ timestamp: step * 30 * 1000 + 1000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** Marks a step as used (the code the browser test typed). */
export function markUsed(secret, code) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, "")), digits: 6, period: 30 });
  const delta = totp.validate({ token: code, window: 1 });
  if (delta !== null) lastStep.set(secret, Math.floor(Date.now() / 1000 / 30) + delta);
}

/** Completes first-time setup through the API with the user's invitation token: answers {email, password, secret, userId}. */
export async function setUpUserViaApi(browser, user) {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${BASE_URL}/auth`);
    await apiCall(page, "GET", "/api/auth/user");
    const check = await apiCall(page, "POST", "/api/auth/first-time-login", { email: user.email, token: user.token });
    assert.equal(check.status, 200, check.text);
    const setup = await apiCall(page, "GET", `/api/auth/totp-setup/${check.json.userId}`);
    assert.equal(setup.status, 200, setup.text);
    const secret = setup.json.manualEntryKey;
    const done = await apiCall(page, "POST", "/api/auth/setup-password", {
      userId: check.json.userId,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      totpCode: await freshCode(secret),
    });
    assert.equal(done.status, 200, done.text);
    return { ...user, password: PASSWORD, secret, userId: check.json.userId };
  } finally {
    await context.close();
  }
}

/** A signed-in user made for this test: added, set up, then signed in through the API in `page`. */
export async function readyUser(browser, opts) {
  return setUpUserViaApi(browser, await addUser(browser, opts));
}

/** A user made for this test (see readyUser), signed in with a TOTP code in a new browser context: {user, context, page}. */
export async function newUserSignedIn(browser, opts) {
  const user = await readyUser(browser, opts);
  const { context, page } = await newPage(browser);
  await apiLoginTotp(page, user);
  return { user, context, page };
}

/** Signs in through the API with a TOTP code. */
export async function apiLoginTotp(page, user) {
  await page.goto(`${BASE_URL}/auth`);
  const code = await freshCode(user.secret);
  const result = await postLogin(page, { email: user.email, password: user.password, totpCode: code });
  assert.equal(result.status, 200, result.body);
  const body = JSON.parse(result.body);
  assert.ok(body.user, `login answered no user: ${result.body}`);
  return body;
}

/** Fills the sign-in form (password tab) and submits. */
export async function fillSignIn(page, { email, password }) {
  await page.getByLabel("Email").fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** Screenshot plus the serious/critical axe check (asserted empty). */
export async function captureScreen(page, name) {
  await page.waitForTimeout(400); // let transitions settle
  await screenshotAndAudit(page, name);
}

/** Waits for the shell (a signed-in page) to be visible. */
export async function waitForShell(page) {
  await page.getByTestId("user-menu").waitFor({ timeout: 15000 });
}

/** Opens `path` of the SPA (for instance "/profile") in a signed-in page and waits for the shell around it. */
export async function openInShell(page, path) {
  await page.goto(`${BASE_URL}${path}`);
  await waitForShell(page);
}
