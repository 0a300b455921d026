/** Where an ended session sends the page (ADR 0022): /auth, or the single sign-on silent re-check. */
import { afterEach, beforeEach } from "vitest";
import { client } from "@/lib/api";
import { mockFetch } from "@/test/fetchMock";
import { pageNavigation, resetSilentRecheckForTests, SSO_EMAIL_KEY, SSO_SILENT_AT_KEY } from "@/lib/ssoSession";
import { goToSignIn, installUnauthorizedHandler, UNAUTHORIZED_REDIRECT_MS } from "./session";

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetSilentRecheckForTests();
  window.history.pushState({}, "", "/courses?page=2");
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.pushState({}, "", "/");
});

test("without a single sign-on email: to /auth", () => {
  const navigate = vi.fn();
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  goToSignIn(navigate);
  expect(navigate).toHaveBeenCalledWith("/auth");
  expect(assign).not.toHaveBeenCalled();
});

test("after a single sign-on: the silent re-check, back to the same page; within the minute again: /auth", () => {
  localStorage.setItem(SSO_EMAIL_KEY, "ana@contoso.edu.au");
  const navigate = vi.fn();
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  goToSignIn(navigate);
  expect(assign).toHaveBeenCalledWith("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2Fcourses%3Fpage%3D2");
  expect(navigate).not.toHaveBeenCalled();
  expect(sessionStorage.getItem(SSO_SILENT_AT_KEY)).not.toBeNull();

  // The page did not leave (the provider refused at once and sent us back here): no loop.
  resetSilentRecheckForTests();
  goToSignIn(navigate);
  expect(navigate).toHaveBeenCalledWith("/auth");
  expect(assign).toHaveBeenCalledTimes(1);
});

test("not silently when told so (a logout elsewhere), nor anything on the sign-in page", () => {
  localStorage.setItem(SSO_EMAIL_KEY, "ana@contoso.edu.au");
  const navigate = vi.fn();
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  goToSignIn(navigate, { silent: false });
  expect(navigate).toHaveBeenCalledWith("/auth");
  window.history.pushState({}, "", "/auth?ssoError=recheck");
  navigate.mockClear();
  goToSignIn(navigate);
  expect(navigate).not.toHaveBeenCalled();
  expect(assign).not.toHaveBeenCalled();
});

test("a 401 of the API: the silent re-check instead of /auth when the browser signed in with single sign-on", async () => {
  localStorage.setItem(SSO_EMAIL_KEY, "ana@contoso.edu.au");
  const navigate = vi.fn();
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  installUnauthorizedHandler(navigate);
  mockFetch((url) => (url.startsWith("/api/courses") ? { status: 401, body: { message: "Authentication required" } } : undefined));
  await expect(client.GET("/api/courses")).rejects.toMatchObject({ status: 401 });
  await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1), { timeout: UNAUTHORIZED_REDIRECT_MS + 2000 });
  expect(assign).toHaveBeenCalledWith("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2Fcourses%3Fpage%3D2");
  expect(navigate).not.toHaveBeenCalled();
});
