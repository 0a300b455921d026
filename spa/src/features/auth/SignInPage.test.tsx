import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import SignInPage, { passkeyLoginFailure, NO_PASSKEYS_TEXT } from "./SignInPage";

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

const passwordInput = () => document.querySelector('input[name="password"]') as HTMLInputElement;

test("sign-in shows the validation messages of docs/behaviour/accounts.md §2", async () => {
  const fetch = mockFetch(() => undefined);
  renderWithProviders(<SignInPage />, { route: "/auth" });
  expect(screen.getByText("Enter your email and password to access the scheduling system")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Sign In" }));
  expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
  expect(screen.getByText("Password is required")).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
  await userEvent.click(screen.getByRole("button", { name: "Sign In" }));
  expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
  expect(fetch).not.toHaveBeenCalled();
});

test("the code field appears on requiresTotp, accepts digits only and needs 6 of them", async () => {
  const fetch = mockFetch((url, init) => {
    if (url === "/api/auth/login") {
      const body = jsonBody(init) as { totpCode?: string };
      if (!body.totpCode) return { body: { user: null, requiresTotp: true, requiresSetup: false, userId: null } };
      return { body: { user: { id: "u1", email: "a@b.au", firstName: "A", lastName: "B", role: "user" }, requiresTotp: false, requiresSetup: false } };
    }
    return undefined;
  });
  renderWithProviders(<SignInPage />, { route: "/auth" });
  expect(screen.queryByLabelText("Authenticator Code")).not.toBeInTheDocument();
  await userEvent.type(screen.getByLabelText("Email"), "a@b.au");
  await userEvent.type(passwordInput(), "secret-password");
  await userEvent.click(screen.getByRole("button", { name: "Sign In" }));
  const code = await screen.findByLabelText("Authenticator Code");
  expect(screen.getByRole("button", { name: "Verify & Sign In" })).toBeInTheDocument();
  await userEvent.type(code, "12ab3");
  expect(code).toHaveValue("123");
  await userEvent.click(screen.getByRole("button", { name: "Verify & Sign In" }));
  expect(await screen.findByText("TOTP code must be 6 digits")).toBeInTheDocument();
  // Besides the sign-in calls, the email is looked up once for single sign-on (ADR 0022).
  const logins = () => fetch.mock.calls.filter(([url]) => url === "/api/auth/login");
  expect(logins()).toHaveLength(1);
  await userEvent.type(code, "4567");
  expect(code).toHaveValue("123456");
  await userEvent.click(screen.getByRole("button", { name: "Verify & Sign In" }));
  await waitFor(() => expect(logins()).toHaveLength(2));
  expect(jsonBody(logins()[1][1])).toEqual({ email: "a@b.au", password: "secret-password", totpCode: "123456", rememberMe: false });
});

test("requiresSetup with a user id switches to the Account Setup view, and back clears it", async () => {
  mockFetch((url) => {
    if (url === "/api/auth/login") return { body: { user: null, requiresTotp: false, requiresSetup: true, userId: "u-9" } };
    if (url === "/api/auth/totp-setup/u-9") return { body: { qrCodeUri: "data:image/png;base64,AAAA", manualEntryKey: "ABCDEF234567" } };
    return undefined;
  });
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.type(screen.getByLabelText("Email"), "new@b.au");
  await userEvent.type(passwordInput(), "temporary");
  await userEvent.click(screen.getByRole("button", { name: "Sign In" }));
  expect(await screen.findByRole("heading", { name: "Account Setup" })).toBeInTheDocument();
  expect(await screen.findByText("ABCDEF234567")).toBeInTheDocument();
  expect(screen.getByRole("img", { name: "Authenticator QR code" })).toHaveAttribute("src", "data:image/png;base64,AAAA");
  await userEvent.click(screen.getByRole("button", { name: "Back to Login" }));
  expect(await screen.findByRole("heading", { name: "Sign In" })).toBeInTheDocument();
});

test("the passkey tab has its two buttons; failures map to the toasts of docs/behaviour/errors.md §9", async () => {
  renderWithProviders(<SignInPage />, { route: "/auth" });
  await userEvent.click(screen.getByRole("tab", { name: "Passkey" }));
  expect(screen.getByRole("button", { name: "Sign in with Passkey" })).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Back to Password Login" }));
  expect(screen.getByText("Enter your email and password to access the scheduling system")).toBeInTheDocument();

  const notAllowed = Object.assign(new Error("denied"), { name: "NotAllowedError" });
  expect(passkeyLoginFailure(notAllowed)).toEqual({ title: "No passkeys found", message: NO_PASSKEYS_TEXT });
  expect(passkeyLoginFailure(new Error("No credentials available"))).toEqual({ title: "No passkeys found", message: NO_PASSKEYS_TEXT });
  expect(passkeyLoginFailure(new Error(""))).toEqual({ title: "Passkey login failed", message: "An error occurred during passkey authentication" });
});

test("the side panel shows the three feature cards", () => {
  renderWithProviders(<SignInPage />, { route: "/auth" });
  for (const title of ["Course Management", "Teacher Allocation", "Reports & Document Assembly"]) {
    expect(screen.getByRole("heading", { name: title })).toBeInTheDocument();
  }
});
