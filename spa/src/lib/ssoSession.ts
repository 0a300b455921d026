/**
 * The browser's memory of a single sign-on (ADR 0022). A session made by single sign-on ends
 * after at most 12 hours (the API then answers 401); the app then re-checks silently with the identity
 * provider (`prompt=none`) instead of showing the sign-in page, for the email that signed in with it.
 *
 * - `blockplan.ssoEmail` (localStorage): the email of the last "Sign in with <provider>"; cleared by an
 *   explicit sign-out, a password or passkey sign-in, and an `ssoError=recheck` on the sign-in page.
 * - `blockplan.ssoSilentAt` (sessionStorage): when this tab last tried a silent re-check; at most one a
 *   minute, so a provider that refuses cannot send the tab round in circles.
 */

export const SSO_EMAIL_KEY = "blockplan.ssoEmail";
export const SSO_SILENT_AT_KEY = "blockplan.ssoSilentAt";
/** The least time between two silent re-checks of a tab. */
export const SILENT_RETRY_MS = 60_000;

const START_PATH = "/api/auth/sso/start";

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null; // storage blocked (privacy settings): nothing remembered
  }
}

function write(storage: () => Storage, key: string, value: string | null) {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // storage full or blocked: single sign-on still works, only the silent re-check does not
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

/** Remember the email that is signing in with single sign-on (the "Sign in with <provider>" button). */
export function rememberSsoEmail(email: string) {
  const value = email.trim().toLowerCase();
  write(local, SSO_EMAIL_KEY, value || null);
}

/** The email remembered by `rememberSsoEmail`, or null. */
export function ssoEmail(): string | null {
  return read(local, SSO_EMAIL_KEY) || null;
}

/** Forget the single sign-on email (sign-out, password or passkey sign-in, a refused re-check). */
export function forgetSsoEmail() {
  write(local, SSO_EMAIL_KEY, null);
}

/** `startUrl` (from discover) with the path to return to after the sign-in, when there is one. */
export function withNext(startUrl: string, next?: string | null): string {
  if (!next) return startUrl;
  return `${startUrl}${startUrl.includes("?") ? "&" : "?"}next=${encodeURIComponent(next)}`;
}

/** The silent re-check's address for `email`, coming back to `next`. */
export function silentStartUrl(email: string, next: string): string {
  return `${START_PATH}?email=${encodeURIComponent(email)}&silent=1&next=${encodeURIComponent(next)}`;
}

/**
 * The silent re-check to navigate to instead of the sign-in page, or null: null without a remembered
 * email, or when this tab tried one less than a minute ago. A non-null answer records the attempt.
 */
export function claimSilentRecheck(next: string, now: number = Date.now()): string | null {
  const email = ssoEmail();
  if (!email) return null;
  const last = Number(read(session, SSO_SILENT_AT_KEY) ?? "");
  if (Number.isFinite(last) && last > 0 && now - last < SILENT_RETRY_MS && now >= last) return null;
  write(session, SSO_SILENT_AT_KEY, String(now));
  return silentStartUrl(email, next.startsWith("/") && !next.startsWith("//") ? next : "/");
}

/** When this page started leaving for a silent re-check (0: it has not). */
/** The page's full navigation (the server answers with a redirect to the identity provider); a seam for tests. */
export const pageNavigation = {
  assign: (url: string) => window.location.assign(url),
};

let leavingAt = 0;
const LEAVING_MS = 10_000;

/**
 * Start the silent re-check when `claimSilentRecheck` allows one: navigate the page (a full navigation:
 * the server redirects to the identity provider) and answer true; false means "go to the sign-in page".
 * While the page is leaving (10 s), later calls answer true and do nothing: no second navigation races it.
 */
export function startSilentRecheck(next: string, go: (url: string) => void = pageNavigation.assign, now: number = Date.now()): boolean {
  if (leavingAt && now - leavingAt < LEAVING_MS && now >= leavingAt) return true;
  leavingAt = 0;
  const url = claimSilentRecheck(next, now);
  if (!url) return false;
  leavingAt = now;
  go(url);
  return true;
}

/** Tests: forget that the page is leaving. */
export function resetSilentRecheckForTests() {
  leavingAt = 0;
}
