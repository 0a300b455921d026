/** The sign-in page's single sign-on (ADR 0022): the provider's button, required mode, refused sign-ins. */
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach } from "vitest";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import SignInPage from "./SignInPage";
import { SSO_ERROR_FALLBACK, SSO_ERROR_MESSAGES } from "./ssoMessages";
import { pageNavigation, SSO_EMAIL_KEY } from "@/lib/ssoSession";

const notifyError = vi.hoisted(() => vi.fn());
vi.mock("@/lib/notify", async (importOriginal) => ({ ...(await importOriginal<typeof import("@/lib/notify")>()), notifyError }));

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  notifyError.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Longer than the discover debounce: whatever would be asked has been asked and answered. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 400)));
const emailInput = () => screen.getByLabelText("Email");
const passwordInput = () => document.querySelector('input[name="password"]') as HTMLInputElement;

/** discover: contoso.edu.au signs in with "Contoso Entra" (required or not); any other domain has none. */
function mockDiscover({ required = false, login }: { required?: boolean; login?: () => { status?: number; body?: unknown } } = {}) {
  return mockFetch((url, init) => {
    if (url === "/api/auth/sso/discover") {
      const { email } = jsonBody(init) as { email: string };
      if (!email.endsWith("@contoso.edu.au")) return { body: { sso: false } };
      return { body: { sso: true, providerName: "Contoso Entra", startUrl: `/api/auth/sso/start?email=${encodeURIComponent(email)}`, required } };
    }
    if (url === "/api/auth/login" && login) return login();
    return undefined;
  });
}

const discovered = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([url]) => url === "/api/auth/sso/discover").map(([, init]) => (jsonBody(init) as { email: string }).email);

test("the provider's button shows once discover says the email signs in with it, and starts its sign-in", async () => {
  const fetch = mockDiscover();
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.type(emailInput(), "Ana@Contoso.edu.au");
  const button = await screen.findByRole("button", { name: "Sign in with Contoso Entra" });
  expect(discovered(fetch)).toContain("ana@contoso.edu.au");
  expect(screen.getByText("or")).toBeInTheDocument();
  // Optional single sign-on: no "required" text, the password form as it was.
  expect(screen.queryByText(/Your organization signs in with/)).not.toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument();

  await userEvent.click(button);
  expect(assign).toHaveBeenCalledWith("/api/auth/sso/start?email=ana%40contoso.edu.au");
  expect(localStorage.getItem(SSO_EMAIL_KEY)).toBe("ana@contoso.edu.au");
});

test("no button for an email discover says has no provider, nor for something that is not an email", async () => {
  const fetch = mockDiscover();
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.type(emailInput(), "not-an-email");
  await userEvent.click(passwordInput()); // blur: asks at once, but only for an email
  await settle();
  expect(discovered(fetch)).toEqual([]);

  await userEvent.clear(emailInput());
  await userEvent.type(emailInput(), "bo@elsewhere.edu.au");
  await userEvent.click(passwordInput());
  await waitFor(() => expect(discovered(fetch)).toContain("bo@elsewhere.edu.au"));
  await settle();
  expect(screen.queryByRole("button", { name: /^Sign in with/ })).not.toBeInTheDocument();
});

test("changing the email from a provider's domain to another takes the button away", async () => {
  mockDiscover();
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.type(emailInput(), "ana@contoso.edu.au");
  expect(await screen.findByRole("button", { name: "Sign in with Contoso Entra" })).toBeInTheDocument();
  await userEvent.clear(emailInput());
  await userEvent.type(emailInput(), "ana@elsewhere.edu.au");
  await waitFor(() => expect(screen.queryByRole("button", { name: "Sign in with Contoso Entra" })).not.toBeInTheDocument());
  await settle();
  expect(screen.queryByRole("button", { name: /^Sign in with/ })).not.toBeInTheDocument();
});

test("required single sign-on says so and keeps the password sign-in usable; its 403 shows the server's message", async () => {
  const message = "Your organization signs in with Contoso Entra. Use “Sign in with Contoso Entra”.";
  const fetch = mockDiscover({ required: true, login: () => ({ status: 403, body: { message, type: "sso_required", providerName: "Contoso Entra" } }) });
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.type(emailInput(), "ana@contoso.edu.au");
  expect(await screen.findByText("Your organization signs in with Contoso Entra.")).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Sign in with Contoso Entra" })).toBeInTheDocument();
  // The break-glass administrator still signs in with a password here.
  await userEvent.type(passwordInput(), "secret-password");
  await userEvent.click(screen.getByRole("button", { name: "Sign In" }));
  await waitFor(() => expect(fetch.mock.calls.some(([url]) => url === "/api/auth/login")).toBe(true));
  await waitFor(() => expect(notifyError).toHaveBeenCalledWith("Login failed", message));
});

test("?ssoError shows the reason in a red alert; an unknown code the generic text", async () => {
  mockFetch(() => undefined);
  const { unmount } = renderWithProviders(<SignInPage />, { route: "/auth?ssoError=domain" });
  const alert = screen.getByRole("alert");
  expect(alert).toHaveTextContent("Single sign-on failed");
  expect(alert).toHaveTextContent(SSO_ERROR_MESSAGES.domain);
  expect(screen.getByText("Your email address is not in a domain your organization's single sign-on covers.")).toBeInTheDocument();
  unmount();

  renderWithProviders(<SignInPage />, { route: "/auth?ssoError=something_new" });
  expect(screen.getByRole("alert")).toHaveTextContent(SSO_ERROR_FALLBACK);
  expect(screen.getByText("Single sign-on failed. Please try again.")).toBeInTheDocument();
});

test("no alert without ssoError; a refused re-check forgets the single sign-on email", async () => {
  mockFetch(() => undefined);
  const { unmount } = renderWithProviders(<SignInPage />, { route: "/auth" });
  expect(screen.queryByText("Single sign-on failed")).not.toBeInTheDocument();
  unmount();

  localStorage.setItem(SSO_EMAIL_KEY, "ana@contoso.edu.au");
  renderWithProviders(<SignInPage />, { route: "/auth?ssoError=provider" });
  expect(screen.getByText(SSO_ERROR_MESSAGES.provider)).toBeInTheDocument();
  expect(localStorage.getItem(SSO_EMAIL_KEY)).toBe("ana@contoso.edu.au");

  renderWithProviders(<SignInPage />, { route: "/auth?ssoError=recheck" });
  expect(screen.getByText("Your single sign-on session has ended. Please sign in again.")).toBeInTheDocument();
  await waitFor(() => expect(localStorage.getItem(SSO_EMAIL_KEY)).toBeNull());
});

test("a password sign-in forgets the single sign-on email", async () => {
  localStorage.setItem(SSO_EMAIL_KEY, "ana@contoso.edu.au");
  mockDiscover({
    login: () => ({ body: { user: { id: "u1", email: "bo@b.au", firstName: "B", lastName: "O", role: "user" }, requiresTotp: false, requiresSetup: false } }),
  });
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.type(emailInput(), "bo@b.au");
  await userEvent.type(passwordInput(), "secret-password");
  await userEvent.click(screen.getByRole("button", { name: "Sign In" }));
  await waitFor(() => expect(localStorage.getItem(SSO_EMAIL_KEY)).toBeNull());
});
