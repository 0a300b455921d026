/** The sign-in page's texts for a refused single sign-on are the server's MESSAGES, word for word. */
import { SSO_ERROR_FALLBACK, SSO_ERROR_MESSAGES, ssoErrorMessage } from "./ssoMessages";

/** Node's file reading (the app's types leave out Node's: this is the one test that reads a file). */
type Fs = { readFileSync: (path: string, encoding: "utf8") => string };

/** MESSAGES = {...} of project/accounts/sso/services.py, read as the server has it: the test fails when the two drift apart. */
async function serverMessages(): Promise<Record<string, string>> {
  const fs = (await import(/* @vite-ignore */ "node:fs" as string)) as Fs;
  // vitest runs in spa/ (npx vitest run, scripts/test.sh).
  const cwd = (globalThis as unknown as { process: { cwd: () => string } }).process.cwd();
  const source = fs.readFileSync(`${cwd}/../project/accounts/sso/services.py`, "utf8");
  const block = source.match(/^MESSAGES = \{\n([\s\S]*?)\n\}/m);
  if (!block) throw new Error("MESSAGES not found in services.py");
  const out: Record<string, string> = {};
  for (const line of block[1].split("\n")) {
    const entry = line.match(/^\s*"(\w+)":\s*"((?:[^"\\]|\\.)*)",?\s*$/);
    if (entry) out[entry[1]] = entry[2].replace(/\\(.)/g, "$1");
  }
  return out;
}

test("one message per code of the server, identical", async () => {
  expect(SSO_ERROR_MESSAGES).toEqual(await serverMessages());
  expect(Object.keys(SSO_ERROR_MESSAGES).sort()).toEqual(
    ["domain", "inactive", "no_email", "not_configured", "provider", "reauth", "recheck", "state", "token", "unavailable", "unknown_user", "unverified"].sort(),
  );
});

test("an unknown code gets the generic text", () => {
  expect(ssoErrorMessage("recheck")).toBe("Your single sign-on session has ended. Please sign in again.");
  expect(ssoErrorMessage("surprise")).toBe("Single sign-on failed. Please try again.");
  expect(ssoErrorMessage("toString")).toBe(SSO_ERROR_FALLBACK);
});
