// The browser tests' handle on the test OpenID provider (ADR 0022; single sign-on): starts
// spa/e2e/support/oidc-provider.mjs (Node's certified `oidc-provider`) as a child process on a free port, waits
// for its "listening" line, and wraps its registration endpoint and control API. The browser then signs in on
// the provider's own page ("Test Identity Provider": an Email field and a Continue button).
//
//   import { startProvider } from "./support/oidc.mjs";
//   const idp = await startProvider();
//   const { clientId, clientSecret } = await idp.registerClient(["http://localhost:8765/api/auth/sso/callback"]);
//   await idp.setAccount("mel", { email: "mel@example.edu.au", name: "Mel Member" });
//   await idp.injectFault("expired"); // the next ID token only
//   await idp.stop();
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { resolve } from "node:path";

const SCRIPT = resolve(import.meta.dirname, "oidc-provider.mjs");
const READY = /^OIDC provider listening on (\S+)$/;
const START_TIMEOUT_MS = 20_000;

/** Start a provider; resolves once it listens (rejects with its stderr if it has not within 20 s). */
export async function startProvider() {
  const child = spawn(process.execPath, [SCRIPT, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-20_000); // the tail, for error messages; keeps the pipe drained
  });
  const exited = new Promise((resolveExit) => child.once("exit", (code, signal) => resolveExit({ code, signal })));

  const issuer = await new Promise((resolveIssuer, reject) => {
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`the OpenID provider did not start: ${why}\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`no "listening" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    // The reader stays attached for the life of the process, so stdout never fills up.
    createInterface({ input: child.stdout }).on("line", (line) => {
      const ready = line.match(READY);
      if (ready && !settled) {
        settled = true;
        clearTimeout(timer);
        resolveIssuer(ready[1]);
      }
    });
    child.once("error", (error) => fail(error.message));
    exited.then(({ code, signal }) => fail(`it exited (code ${code}, signal ${signal})`));
  });

  async function call(method, path, body, expected) {
    const response = await fetch(`${issuer}${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== expected) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  }

  return {
    issuer,

    /** SIGTERM, and wait for the process to end. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },

    /**
     * RFC 7591 registration of a confidential web client for the code flow (PKCE is required of it); `metadata`:
     * more client metadata, e.g. post_logout_redirect_uris and backchannel_logout_uri (ADR 0024).
     */
    async registerClient(redirectUris, tokenEndpointAuthMethod = "client_secret_basic", metadata = {}) {
      const client = await call(
        "POST",
        "/reg",
        {
          redirect_uris: redirectUris,
          token_endpoint_auth_method: tokenEndpointAuthMethod,
          grant_types: ["authorization_code"],
          response_types: ["code"],
          ...metadata,
        },
        201,
      );
      return { clientId: client.client_id, clientSecret: client.client_secret };
    },

    /** Create or replace an account: claims {email, email_verified = true, name, given_name, family_name, disabled = false}. */
    async setAccount(sub, claims) {
      await call("PUT", `/__control/accounts/${encodeURIComponent(sub)}`, claims, 204);
    },

    /** Spoil the next ID token: "expired", "wrong_signature", "wrong_audience", "wrong_audience_with_azp", "wrong_issuer" or "wrong_nonce". */
    async injectFault(kind) {
      await call("POST", "/__control/faults", { idToken: kind }, 204);
    },

    async clearFaults() {
      await call("DELETE", "/__control/faults", undefined, 204);
    },

    /** The parameters of the latest authorization request ({} before any). */
    async lastAuthorization() {
      return call("GET", "/__control/last-authorization", undefined, 200);
    },
  };
}
