import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { afterEach } from "vitest";
import { mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { pageNavigation, resetSilentRecheckForTests, SSO_EMAIL_KEY } from "@/lib/ssoSession";
import { ACCESS_DENIED_TEXT, NotFoundPage, ORGANIZATION_DENIED_TEXT, RequireAdmin, RequireAuth } from "./guards";

afterEach(() => vi.unstubAllGlobals());

const member = { id: "u1", email: "m@demo.au", firstName: "Mia", lastName: "Member", role: "user" };
const admin = { ...member, id: "a1", role: "admin" };

test("the not-found screen names itself", () => {
  renderWithProviders(<NotFoundPage />);
  expect(screen.getByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
});

test("protected pages show 'Loading...' while the user loads, then redirect to /auth when signed out", async () => {
  mockFetch((url) => (url === "/api/auth/user" ? { status: 401, body: { message: "Unauthorized" } } : undefined));
  renderWithProviders(
    <Routes>
      <Route path="/auth" element={<p>sign-in screen</p>} />
      <Route path="/" element={<RequireAuth>secret</RequireAuth>} />
    </Routes>,
  );
  expect(screen.getByText("Loading...")).toBeInTheDocument();
  expect(await screen.findByText("sign-in screen")).toBeInTheDocument();
  expect(screen.queryByText("secret")).not.toBeInTheDocument();
});

test("signed out after a single sign-on: the silent re-check instead of /auth, at most once a minute", async () => {
  localStorage.setItem(SSO_EMAIL_KEY, "ana@contoso.edu.au");
  sessionStorage.clear();
  resetSilentRecheckForTests();
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  mockFetch((url) => (url === "/api/auth/user" ? { status: 401, body: { message: "Unauthorized" } } : undefined));
  const routes = (
    <Routes>
      <Route path="/auth" element={<p>sign-in screen</p>} />
      <Route path="/courses" element={<RequireAuth>secret</RequireAuth>} />
    </Routes>
  );
  const { unmount } = renderWithProviders(routes, { route: "/courses?page=2" });
  await waitFor(() => expect(assign).toHaveBeenCalledWith("/api/auth/sso/start?email=ana%40contoso.edu.au&silent=1&next=%2Fcourses%3Fpage%3D2"));
  expect(screen.getByText("Loading...")).toBeInTheDocument();
  expect(screen.queryByText("sign-in screen")).not.toBeInTheDocument();
  unmount();

  // Back without a session within the minute (the provider refused): the sign-in page, no loop.
  resetSilentRecheckForTests();
  renderWithProviders(routes, { route: "/courses" });
  expect(await screen.findByText("sign-in screen")).toBeInTheDocument();
  expect(assign).toHaveBeenCalledTimes(1);
  localStorage.clear();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

test("admin-only pages show Access Denied with Go Back to a member", async () => {
  mockFetch((url) => (url === "/api/auth/user" ? { body: { user: member } } : undefined));
  renderWithProviders(
    <Routes>
      <Route path="/" element={<p>previous page</p>} />
      <Route path="/organization" element={<RequireAdmin message={ORGANIZATION_DENIED_TEXT}>org</RequireAdmin>} />
      <Route path="/gantt" element={<RequireAdmin>gantt</RequireAdmin>} />
    </Routes>,
    { route: "/gantt" },
  );
  expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
  expect(screen.getByText(ACCESS_DENIED_TEXT)).toBeInTheDocument();
  expect(screen.queryByText("gantt")).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Go Back" }));
});

test("the organization page has its own denial text; admins pass", async () => {
  mockFetch((url) => (url === "/api/auth/user" ? { body: { user: member } } : undefined));
  const { unmount } = renderWithProviders(<RequireAdmin message={ORGANIZATION_DENIED_TEXT}>org</RequireAdmin>);
  expect(await screen.findByText("You don't have permission to access organization management.")).toBeInTheDocument();
  unmount();
  mockFetch((url) => (url === "/api/auth/user" ? { body: { user: admin } } : undefined));
  renderWithProviders(<RequireAdmin>admin content</RequireAdmin>);
  expect(await screen.findByText("admin content")).toBeInTheDocument();
});
