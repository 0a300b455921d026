/** The browser's memory of a single sign-on and the silent re-check's once-a-minute rule (ADR 0022). */
import { afterEach, beforeEach } from "vitest";
import {
  claimSilentRecheck,
  forgetSsoEmail,
  rememberSsoEmail,
  resetSilentRecheckForTests,
  SILENT_RETRY_MS,
  silentStartUrl,
  SSO_EMAIL_KEY,
  SSO_SILENT_AT_KEY,
  ssoEmail,
  startSilentRecheck,
  withNext,
} from "./ssoSession";

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetSilentRecheckForTests();
});
afterEach(() => vi.restoreAllMocks());

test("the keys are blockplan.ssoEmail (localStorage) and blockplan.ssoSilentAt (sessionStorage)", () => {
  expect(SSO_EMAIL_KEY).toBe("blockplan.ssoEmail");
  expect(SSO_SILENT_AT_KEY).toBe("blockplan.ssoSilentAt");
  expect(SILENT_RETRY_MS).toBe(60_000);
});

test("remember, read and forget the email (trimmed, lower-cased)", () => {
  expect(ssoEmail()).toBeNull();
  rememberSsoEmail("  Ana@Contoso.EDU.au ");
  expect(localStorage.getItem("blockplan.ssoEmail")).toBe("ana@contoso.edu.au");
  expect(ssoEmail()).toBe("ana@contoso.edu.au");
  forgetSsoEmail();
  expect(localStorage.getItem("blockplan.ssoEmail")).toBeNull();
  expect(ssoEmail()).toBeNull();
  rememberSsoEmail("   ");
  expect(ssoEmail()).toBeNull();
});

test("the start URL gets the path to return to, when there is one", () => {
  expect(withNext("/api/auth/sso/start?email=a%40b.au", null)).toBe("/api/auth/sso/start?email=a%40b.au");
  expect(withNext("/api/auth/sso/start?email=a%40b.au", "/timetables/7?week=3")).toBe("/api/auth/sso/start?email=a%40b.au&next=%2Ftimetables%2F7%3Fweek%3D3");
  expect(withNext("/api/auth/sso/start", "/")).toBe("/api/auth/sso/start?next=%2F");
  expect(silentStartUrl("ana@contoso.edu.au", "/courses")).toBe("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2Fcourses");
});

test("no silent re-check without a remembered email", () => {
  expect(claimSilentRecheck("/courses", 1_000_000)).toBeNull();
  expect(sessionStorage.getItem("blockplan.ssoSilentAt")).toBeNull();
});

test("a silent re-check at most once a minute per tab, recorded in sessionStorage", () => {
  rememberSsoEmail("ana@contoso.edu.au");
  const t0 = 1_700_000_000_000;
  expect(claimSilentRecheck("/courses?page=2", t0)).toBe("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2Fcourses%3Fpage%3D2");
  expect(sessionStorage.getItem("blockplan.ssoSilentAt")).toBe(String(t0));
  expect(claimSilentRecheck("/courses", t0 + 1_000)).toBeNull();
  expect(claimSilentRecheck("/courses", t0 + SILENT_RETRY_MS - 1)).toBeNull();
  expect(sessionStorage.getItem("blockplan.ssoSilentAt")).toBe(String(t0));
  expect(claimSilentRecheck("/courses", t0 + SILENT_RETRY_MS)).not.toBeNull();
  expect(sessionStorage.getItem("blockplan.ssoSilentAt")).toBe(String(t0 + SILENT_RETRY_MS));
});

test("a path that is not this site's comes back to /", () => {
  rememberSsoEmail("ana@contoso.edu.au");
  expect(claimSilentRecheck("//evil.example/x", 5_000_000)).toBe("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2F");
});

test("startSilentRecheck navigates once; a second call while leaving does nothing; without an email it declines", () => {
  const go = vi.fn();
  expect(startSilentRecheck("/courses", go, 10_000_000)).toBe(false);
  expect(go).not.toHaveBeenCalled();

  rememberSsoEmail("ana@contoso.edu.au");
  expect(startSilentRecheck("/courses", go, 10_000_000)).toBe(true);
  expect(go).toHaveBeenCalledWith("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2Fcourses");
  // The page is on its way to the provider: the 401 handler and the guard both asking is one navigation.
  expect(startSilentRecheck("/courses", go, 10_000_500)).toBe(true);
  expect(go).toHaveBeenCalledTimes(1);
  // Still here after a while (the navigation did not happen), within the minute: the sign-in page.
  expect(startSilentRecheck("/courses", go, 10_030_000)).toBe(false);
  expect(go).toHaveBeenCalledTimes(1);
});

test("blocked storage: nothing remembered, no silent re-check, no error", () => {
  vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
    throw new Error("SecurityError");
  });
  vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
    throw new Error("SecurityError");
  });
  expect(() => rememberSsoEmail("ana@contoso.edu.au")).not.toThrow();
  expect(ssoEmail()).toBeNull();
  expect(claimSilentRecheck("/", 1)).toBeNull();
});
