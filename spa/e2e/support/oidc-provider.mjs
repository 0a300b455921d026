#!/usr/bin/env node
// A real, local OpenID provider for the test suite (ADR 0022; single sign-on), built on Node's certified
// `oidc-provider` (panva, v9). The Python tests (tests/sso/provider.py) and the browser tests
// (spa/e2e/support/oidc.mjs) start it and sign in against it; nothing about our own server is mocked.
//
//   node spa/e2e/support/oidc-provider.mjs --port 0
//
// listens on 127.0.0.1 (port 0: any free port), with issuer http://127.0.0.1:<port>, and prints exactly one
// line to stdout when ready:  OIDC provider listening on http://127.0.0.1:<port>
// It exits cleanly on SIGTERM (and SIGINT).
//
// What it offers (all state in memory, gone when the process ends):
// - Discovery, JWKS, authorization (/auth), token (/token), userinfo (/me), end session, and RFC 7591 dynamic
//   client registration at POST /reg without an initial access token. A registered "web" client may use http
//   redirect URIs (http://testserver/..., http://localhost:8765/...): oidc-provider only insists on https for
//   web clients using the implicit flow, and the registered clients use the code flow (response_types
//   ["code"]), so nothing special is needed for them.
// - PKCE (S256) required from every client, so a relying party that forgets it fails.
// - Scopes openid (sub), email (email, email_verified), profile (name, given_name, family_name). With
//   `conformIdTokenClaims: false` the ID token itself carries the claims of the granted scopes, not only
//   the userinfo endpoint.
// - Our own interaction pages (not devInteractions): GET /interaction/:uid shows a "Test Identity Provider"
//   page with an "Email" field (prefilled from login_hint) and a "Continue" button; POST signs the account in
//   by email ("Unknown or disabled account" otherwise). Consent is granted automatically: no second page.
// - A test-only control API (plain JSON, no authentication; never expose this beyond the loopback):
//     GET    /__control/health                 200 {"ok": true, "issuer": ...}
//     PUT    /__control/accounts/:sub          body {email, email_verified=true, name?, given_name?, family_name?,
//                                              disabled=false, emailInUserinfoOnly=false}; replaces the account; 204
//     GET    /__control/last-authorization     200, the parameters of the latest request to /auth ({} before any)
//     POST   /__control/faults                 body {"idToken": "expired" | "wrong_signature" | "wrong_audience" | "wrong_audience_with_azp" |
//                                              "wrong_issuer" | "wrong_nonce"}; spoils the ID token of the NEXT
//                                              successful token response only; 204
//     DELETE /__control/faults                 clears a pending fault; 204
//     POST   /__control/logout-token           body {clientId, sub?, sid?, fault?}: 200 {"logoutToken": <a signed
//                                              back-channel logout token>}; fault one of wrong_audience, wrong_issuer,
//                                              expired, nonce, no_event, wrong_signature
//   A disabled (or unknown) account is not found by `findAccount`: it cannot sign in, and a silent
//   re-authentication (prompt=none) of a session whose account was disabled since ends at the relying party
//   with error=login_required (thanks to an extra check in the login prompt, see `policy` below).
import { once } from "node:events";
import { createServer } from "node:http";
import { randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import { interactionPolicy, Provider } from "oidc-provider";

const { values: args } = parseArgs({ options: { port: { type: "string", default: "0" } } });
const ROUTES = { authorization: "/auth", token: "/token", registration: "/reg", userinfo: "/me", jwks: "/jwks" };
const FAULTS = new Set(["expired", "wrong_signature", "wrong_audience", "wrong_audience_with_azp", "wrong_issuer", "wrong_nonce"]);

// ------------------------------------------------------------------------------------------ state

/** @type {Map<string, {email: string, email_verified: boolean, name?: string, given_name?: string, family_name?: string, disabled: boolean}>} */
const accounts = new Map();
let lastAuthorization = {};
let pendingFault = null;

// The signing key: an RS256 pair made at start. The private key stays here too, to re-sign spoiled tokens.
const KID = `test-${randomUUID()}`;
const signingKey = await generateKeyPair("RS256", { extractable: true });
const privateJwk = { ...(await exportJWK(signingKey.privateKey)), kid: KID, alg: "RS256", use: "sig" };

function activeAccount(sub) {
  const account = accounts.get(sub);
  return account && !account.disabled ? account : undefined;
}

function accountByEmail(email) {
  const wanted = email.trim().toLowerCase();
  for (const [sub, account] of accounts) {
    if (!account.disabled && account.email.toLowerCase() === wanted) return sub;
  }
  return undefined;
}

// The default interaction policy plus one login check. oidc-provider trusts a session's account to exist: when
// findAccount no longer finds it (disabled since), it would skip the login prompt and fail in the consent
// checks with a server_error. This check asks for login instead, so prompt=none ends at the relying party with
// error=login_required and an ordinary request shows the login page again.
const policy = interactionPolicy.base();
const loginChecks = policy.get("login").checks;
loginChecks.add(
  new interactionPolicy.Check("account_disabled", "the account of this session is disabled or gone", "login_required", (ctx) =>
    Boolean(ctx.oidc.session.accountId && !ctx.oidc.account),
  ),
  loginChecks.findIndex((check) => check.reason === "no_session") + 1,
);

// ------------------------------------------------------------------------------------------ the provider

const server = createServer();
server.listen(Number(args.port), "127.0.0.1");
await once(server, "listening");
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  jwks: { keys: [privateJwk] },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  routes: ROUTES,
  responseTypes: ["code"],
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: true },
    // Sign-out both ways (ADR 0024): RP-initiated logout at /session/end, and back-channel logout tokens
    // POSTed to the backchannel_logout_uri a client registered.
    backchannelLogout: { enabled: true },
    rpInitiatedLogout: { enabled: true, logoutSource },
  },
  pkce: { required: () => true },
  scopes: ["openid", "email", "profile"],
  claims: {
    acr: null,
    auth_time: null,
    iss: null,
    sid: null,
    openid: ["sub"],
    email: ["email", "email_verified"],
    profile: ["name", "given_name", "family_name"],
  },
  conformIdTokenClaims: false,
  // The relying parties of the tests (their back-channel logout URIs) listen on 127.0.0.1, which oidc-provider's
  // own SSRF protection refuses to POST to: this test provider sends its requests without that dispatcher.
  fetch: (url, options) => {
    const { dispatcher: _ssrfGuard, ...rest } = options;
    return fetch(url, rest);
  },
  async findAccount(_ctx, sub) {
    if (!activeAccount(sub)) return undefined;
    return {
      accountId: sub,
      // Read at the time of use, so a change through the control API shows in the next token. An account with
      // emailInUserinfoOnly leaves email and email_verified out of the ID token (the standard allows it).
      async claims(use) {
        const { disabled: _disabled, emailInUserinfoOnly, ...claims } = accounts.get(sub);
        if (use === "id_token" && emailInUserinfoOnly) {
          delete claims.email;
          delete claims.email_verified;
        }
        return Object.fromEntries(Object.entries({ sub, ...claims }).filter(([, value]) => value !== undefined && value !== ""));
      },
    };
  },
  interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  clientBasedCORS: () => true,
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    ClientCredentials: 600,
    IdToken: 3600,
    Interaction: 600,
    RefreshToken: 86400,
    Session: 86400,
    Grant: 86400,
  },
  async renderError(ctx, out) {
    ctx.type = "html";
    ctx.body = page("Sign-in error", `<p>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? "")}</p>`);
  },
});

// Unexpected failures inside the provider go to stderr (the Python helper shows it when the start fails).
provider.on("server_error", (_ctx, error) => console.error("oidc-provider server_error:", error));
provider.on("backchannel.error", (_ctx, error, client) => console.error(`oidc-provider backchannel.error (${client.clientId}):`, error.message));

// Koa middleware around the provider's own endpoints: record authorization requests, spoil ID tokens.
provider.use(async (ctx, next) => {
  try {
    await next();
  } finally {
    if (ctx.path === ROUTES.authorization) {
      lastAuthorization = { ...ctx.query, ...(ctx.method === "POST" ? (ctx.oidc?.body ?? {}) : {}) };
    }
  }
  if (ctx.path === ROUTES.token && ctx.method === "POST" && ctx.status === 200 && ctx.body?.id_token && pendingFault) {
    const kind = pendingFault;
    pendingFault = null;
    ctx.body = { ...ctx.body, id_token: await spoil(ctx.body.id_token, kind) };
  }
});

/** The ID token with one thing wrong about it, signed again (with the provider's key unless the fault is the key). */
async function spoil(idToken, kind) {
  const header = decodeProtectedHeader(idToken);
  const claims = decodeJwt(idToken);
  let key = signingKey.privateKey;
  const now = Math.floor(Date.now() / 1000);
  switch (kind) {
    case "expired": {
      // exp one hour ago; iat moved back by as much, so the token's lifetime stays what it was.
      const lifetime = claims.exp - claims.iat;
      claims.exp = now - 3600;
      claims.iat = claims.exp - lifetime;
      break;
    }
    case "wrong_signature":
      // Another key under the SAME kid: the relying party finds "our" key and the signature fails.
      key = (await generateKeyPair("RS256")).privateKey;
      break;
    case "wrong_audience":
      claims.aud = "someone-else";
      break;
    case "wrong_audience_with_azp":
      // Issued to another client, naming ours as the authorized party: still not a token for us.
      claims.azp = claims.aud;
      claims.aud = "someone-else";
      break;
    case "wrong_issuer":
      claims.iss = "http://evil.example";
      break;
    case "wrong_nonce":
      claims.nonce = "not-the-nonce";
      break;
  }
  return new SignJWT(claims).setProtectedHeader(header).sign(key);
}

// ------------------------------------------------------------------------------------------ interactions

/**
 * The "sign out?" page of RP-initiated logout: oidc-provider's form (its xsrf field) answering "yes" by itself
 * (a hidden logout=yes, so the Python user agent submits it as a browser script would), and a visible
 * "Yes, sign me out" button for a real browser (without a name: oidc-provider refuses a second logout field).
 */
async function logoutSource(ctx, form) {
  const confirmed = form.replace("</form>", '<input type="hidden" name="logout" value="yes"/></form>');
  ctx.body = page("Sign out", `${confirmed}\n<button type="submit" form="op.logoutForm">Yes, sign me out</button>`);
}

function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function page(heading, body) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Test Identity Provider</title></head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
${body}
</main>
</body>
</html>
`;
}

function loginPage(uid, email, error) {
  const alert = error ? `<p role="alert">${escapeHtml(error)}</p>\n` : "";
  return page(
    "Test Identity Provider",
    `${alert}<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(email)}">
<button type="submit">Continue</button>
</form>`,
  );
}

async function grantConsent(req, res, details) {
  const {
    prompt: { details: missing },
    params,
    session,
    grantId,
  } = details;
  const grant = (grantId && (await provider.Grant.find(grantId))) || new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(" "));
  }
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

async function interaction(req, res, uid) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "consent") return grantConsent(req, res, details);
  if (req.method === "GET") return send(res, 200, loginPage(uid, details.params.login_hint ?? ""), "text/html");

  const email = new URLSearchParams(await readBody(req)).get("email") ?? "";
  const sub = accountByEmail(email);
  if (!sub) return send(res, 200, loginPage(uid, email, "Unknown or disabled account"), "text/html");
  await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
}

// ------------------------------------------------------------------------------------------ control API

async function control(req, res, path) {
  const account = path.match(/^\/__control\/accounts\/([^/]+)$/);
  if (account && req.method === "PUT") {
    const body = JSON.parse((await readBody(req)) || "{}");
    if (typeof body.email !== "string" || !body.email) return send(res, 400, { error: "email is required" });
    const optional = (name) => (typeof body[name] === "string" && body[name] ? body[name] : undefined);
    accounts.set(decodeURIComponent(account[1]), {
      email: body.email,
      email_verified: body.email_verified ?? true,
      name: optional("name"),
      given_name: optional("given_name"),
      family_name: optional("family_name"),
      disabled: body.disabled ?? false,
      emailInUserinfoOnly: body.emailInUserinfoOnly ?? false,
    });
    return send(res, 204);
  }
  if (path === "/__control/faults" && req.method === "POST") {
    const { idToken } = JSON.parse((await readBody(req)) || "{}");
    if (!FAULTS.has(idToken)) return send(res, 400, { error: `idToken must be one of ${[...FAULTS].join(", ")}` });
    pendingFault = idToken;
    return send(res, 204);
  }
  if (path === "/__control/faults" && req.method === "DELETE") {
    pendingFault = null;
    return send(res, 204);
  }
  if (path === "/__control/logout-token" && req.method === "POST")
    return send(res, 200, { logoutToken: await logoutToken(JSON.parse((await readBody(req)) || "{}")) });
  if (path === "/__control/last-authorization" && req.method === "GET") return send(res, 200, lastAuthorization);
  if (path === "/__control/health" && req.method === "GET") return send(res, 200, { ok: true, issuer });
  return send(res, 404, { error: "not found" });
}

/**
 * A back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.4) signed with the provider's key, as
 * the provider would POST it, for the tests of its verification; `fault` spoils one thing about it.
 */
async function logoutToken({ clientId, sub, sid, fault }) {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: issuer,
    aud: clientId,
    iat: now,
    exp: now + 120,
    jti: randomUUID(),
    events: { "http://schemas.openid.net/event/backchannel-logout": {} },
  };
  if (sub) claims.sub = sub;
  if (sid) claims.sid = sid;
  let key = signingKey.privateKey;
  if (fault === "wrong_audience") claims.aud = "someone-else";
  if (fault === "wrong_issuer") claims.iss = "http://evil.example";
  if (fault === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  if (fault === "nonce") claims.nonce = "a-nonce";
  if (fault === "no_event") claims.events = {};
  if (fault === "wrong_signature") key = (await generateKeyPair("RS256")).privateKey;
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: KID, typ: "logout+jwt" }).sign(key);
}

// ------------------------------------------------------------------------------------------ HTTP

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res, status, body, type = "application/json") {
  res.statusCode = status;
  res.setHeader("Cache-Control", "no-store");
  if (body === undefined) return res.end();
  res.setHeader("Content-Type", `${type}; charset=utf-8`);
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

const oidc = provider.callback();
server.on("request", async (req, res) => {
  const path = new URL(req.url, issuer).pathname;
  try {
    if (path.startsWith("/__control/")) return await control(req, res, path);
    const uid = path.match(/^\/interaction\/([^/]+)$/)?.[1];
    if (uid && (req.method === "GET" || req.method === "POST")) return await interaction(req, res, uid);
  } catch (error) {
    // A missing or expired interaction (SessionNotFound) or a malformed control request: say so, plainly.
    const status = error instanceof SyntaxError ? 400 : (error.statusCode ?? 500);
    if (res.headersSent) return res.end();
    if (path.startsWith("/__control/")) return send(res, status, { error: error.message });
    return send(res, status, page("Sign-in error", `<p>${escapeHtml(error.message)}</p>`), "text/html");
  }
  oidc(req, res);
});

function shutdown() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

process.stdout.write(`OIDC provider listening on ${issuer}\n`);
