// Single sign-on in Chromium (ADR 0022) against a real OpenID provider (Node's oidc-provider, started here by
// spa/e2e/support/oidc.mjs): an admin connects it on the Organization page (Test connection, Save), then a
// staff member types their email on the sign-in page, gets "Sign in with <provider>", signs in on the
// provider's page and lands in Blockplan signed in, with no authenticator code asked. Emails of another
// domain are offered nothing; refusals come back to the sign-in page with their message. The demo's own
// users keep their passwords: single sign-on covers a domain of its own here, and is removed at the end.
// That domain is not the organization's own, so it is offered only once verified (ADR 0024): the admin sees
// the TXT record to publish, the test publishes it on the DNS server scripts/e2e.sh started for the
// server (the JSON file E2E_DNS_RECORDS), and the admin's "Verify now" finds it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { BASE_URL, DEMO, apiCall, browserForFile, newPage, screenshotAndAudit, signedInPage } from "./lib.mjs";
import { freshCode, openInShell, waitForShell } from "./platform-helpers.mjs";
import { startProvider } from "./support/oidc.mjs";

const DOMAIN = `sso-${Date.now().toString(36)}.example.edu.au`;
const STAFF = { email: `sam.staff@${DOMAIN}`, first: "Sam", last: "Staff" };
let idp;
let admin;

// Registered ahead of the shared browser's hooks: node:test runs `after` hooks in order, and this one needs
// the admin's page still open.
after(async () => {
  await apiCall(admin.page, "DELETE", "/api/organization/sso");
  await idp?.stop();
});
const shared = browserForFile(async (browser) => {
  idp = await startProvider();
  admin = await signedInPage(browser, DEMO.admin);
});

test("an admin connects the identity provider on the Organization page", async () => {
  const { clientId, clientSecret } = await idp.registerClient([`${BASE_URL}/api/auth/sso/callback`], "client_secret_basic", {
    post_logout_redirect_uris: [`${BASE_URL}/auth`],
    backchannel_logout_uri: `${BASE_URL}/api/auth/sso/backchannel-logout`,
  });
  const { page } = admin;
  const added = await apiCall(page, "POST", "/api/admin/users", { firstName: STAFF.first, lastName: STAFF.last, email: STAFF.email, role: "user" });
  assert.equal(added.status, 201, added.text);
  await idp.setAccount("sam", { email: STAFF.email, name: "Sam Staff", given_name: "Sam", family_name: "Staff" });

  await openInShell(page, "/organization");
  const form = page.getByRole("form", { name: "Single sign-on" });
  await form.getByText(`${BASE_URL}/api/auth/sso/callback`).waitFor();
  await form.getByLabel("Provider name").fill("Test IdP");
  await form.getByLabel("Issuer URL").fill(idp.issuer);
  await form.getByRole("button", { name: "Test connection" }).click();
  await form.getByText(`Found ${idp.issuer} with 1 signing key(s).`).waitFor();
  await form.getByLabel("Client ID").fill(clientId);
  await form.getByLabel("Client secret").fill(clientSecret);
  const domains = form.getByLabel("Email domains");
  await domains.fill(DOMAIN);
  await domains.press("Enter");
  await form.getByRole("button", { name: "Save single sign-on" }).click();
  await page.getByText("Single sign-on saved").waitFor();

  // Not verified yet: the card shows the record to publish, and staff of the domain are offered nothing.
  const row = form.locator(`[data-testid="sso-domain"][data-domain="${DOMAIN}"]`);
  await row.getByText("Not verified").waitFor();
  const record = (await row.getByTestId("sso-domain-record").innerText()).trim();
  assert.match(record, /^blockplan-domain-verification=[\w-]{20,}$/);
  await row.getByText(`Add a TXT record at ${DOMAIN} with this text:`).waitFor();
  const before = await apiCall(page, "POST", "/api/auth/sso/discover", { email: STAFF.email });
  assert.equal(before.json.sso, false, before.text);
  await screenshotAndAudit(page, "sso-domain-unverified");
  // Verify now before the record exists: the reason, and still not verified.
  await row.getByRole("button", { name: "Verify now" }).click();
  await row
    .getByRole("alert")
    .getByText(/No TXT record/)
    .waitFor();
  // Published (as the organization's DNS admin would), then verified.
  await writeFile(process.env.E2E_DNS_RECORDS, JSON.stringify({ [DOMAIN]: ["v=spf1 -all", record] }));
  await row.getByRole("button", { name: "Verify now" }).click();
  await page.getByText("Domain verified").first().waitFor();
  await form.locator(`[data-testid="sso-domain"][data-domain="${DOMAIN}"][data-verified="true"]`).getByText("Verified").waitFor();
  const after = await apiCall(page, "POST", "/api/auth/sso/discover", { email: STAFF.email });
  assert.equal(after.json.providerName, "Test IdP", after.text);
  // The secret is never shown again, nor sent back.
  const config = await apiCall(page, "GET", "/api/organization/sso");
  assert.equal(config.json.hasClientSecret, true);
  assert.ok(!config.text.includes(clientSecret));
  await page.reload();
  await page.getByRole("form", { name: "Single sign-on" }).getByLabel("Issuer URL").waitFor();
  assert.equal(await page.getByRole("form", { name: "Single sign-on" }).getByLabel("Client secret").inputValue(), "");
});

test("a staff member signs in with the provider, without an authenticator code", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/auth`);
  await page.getByLabel("Email").fill(STAFF.email);
  const button = page.getByRole("button", { name: "Sign in with Test IdP" });
  await button.click();
  // The provider's own page, with the email passed on as login_hint.
  await page.getByRole("heading", { name: "Test Identity Provider" }).waitFor();
  assert.equal(await page.getByLabel("Email").inputValue(), STAFF.email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${BASE_URL}/`);
  await waitForShell(page);
  const me = await apiCall(page, "GET", "/api/auth/user");
  assert.equal(me.status, 200);
  assert.equal(me.json.user.email, STAFF.email);
  const history = await apiCall(admin.page, "GET", "/api/activity");
  assert.ok(
    history.json.items.some((a) => a.summary === "Sam Staff signed in with Test IdP (single sign-on)"),
    history.text,
  );
  await context.close();
});

test("signing out of Blockplan signs out at the provider too, and comes back to the sign-in page", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/auth`);
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await waitForShell(page);
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  // RP-initiated logout (ADR 0024): the provider's own sign-out page, then back to ours.
  await page.getByRole("heading", { name: "Sign out" }).waitFor();
  assert.ok(page.url().startsWith(idp.issuer), page.url());
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await page.waitForURL((url) => url.href.startsWith(`${BASE_URL}/auth`));
  assert.equal((await apiCall(page, "GET", "/api/auth/user")).status, 401);
  // The provider's session is over too: signing in again asks for the account at the provider.
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.getByRole("heading", { name: "Test Identity Provider" }).waitFor();
  await context.close();
});

test("another domain is offered no provider; a refused sign-in says why", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/auth`);
  const discovered = page.waitForResponse((r) => r.url().endsWith("/api/auth/sso/discover") && r.request().postDataJSON()?.email === DEMO.coordinator.email);
  await page.getByLabel("Email").fill(DEMO.coordinator.email);
  assert.equal((await (await discovered).json()).sso, false);
  assert.equal(await page.getByRole("button", { name: /^Sign in with / }).count(), 0);

  // Someone the provider knows but Blockplan does not.
  await idp.setAccount("nobody", { email: `nobody@${DOMAIN}` });
  await page.getByLabel("Email").fill(`nobody@${DOMAIN}`);
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${BASE_URL}/auth?ssoError=unknown_user`);
  const alert = page.getByTestId("sso-error");
  await alert.getByText("There is no Blockplan account for your email address. Ask your administrator to add you.").waitFor();
  assert.equal((await apiCall(page, "GET", "/api/auth/user")).status, 401);
  await context.close();
});

test("a staff member without a password confirms a security change with the provider", async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(`${BASE_URL}/auth`);
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${BASE_URL}/`);
  await openInShell(page, "/profile");

  const enable = async () => {
    await page.getByRole("button", { name: "Enable Two-Factor Authentication" }).click();
    const dialog = page.getByRole("dialog", { name: "Enable Two-Factor Authentication" });
    const key = (await dialog.getByTestId("manual-entry-key").innerText()).trim();
    await dialog.getByLabel("Authenticator Code").fill(await freshCode(key));
    await dialog.getByRole("button", { name: "Enable" }).click();
  };
  await enable();
  // Signing in is not enough for a credential change (ADR 0006); no password to type: the provider confirms.
  const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
  await confirm.getByRole("button", { name: "Confirm with Test IdP" }).click();
  await page.getByRole("heading", { name: "Test Identity Provider" }).waitFor(); // prompt=login: asked again
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${BASE_URL}/profile`);
  await waitForShell(page);
  await enable();
  await page.getByText("Two-factor authentication is now active.").waitFor();
  await page.getByTestId("totp-status").getByText("2FA Enabled").waitFor();
  await context.close();
});
