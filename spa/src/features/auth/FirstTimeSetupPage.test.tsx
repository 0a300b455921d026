import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { ApiError } from "@/lib/api";
import { mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import FirstTimeSetupPage, { firstTimeFailure } from "./FirstTimeSetupPage";

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

test("step one requires a valid email", async () => {
  const fetch = mockFetch(() => undefined);
  renderWithProviders(<FirstTimeSetupPage />, { route: "/setup" });
  expect(screen.getByRole("heading", { name: "First Time Setup" })).toBeInTheDocument();
  expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
  await userEvent.click(screen.getByRole("button", { name: "Continue" }));
  expect(await screen.findByText("Email is required")).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText("Email"), "nope");
  await userEvent.click(screen.getByRole("button", { name: "Continue" }));
  expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
  expect(fetch).not.toHaveBeenCalled();
  expect(screen.getByRole("button", { name: "Back to regular login" })).toBeInTheDocument();
});

test("requiresSetup moves to step two, 'Secure Your Account'", async () => {
  mockFetch((url) => {
    if (url === "/api/auth/first-time-login") return { body: { requiresSetup: true, userId: "u5", hasPassword: false, message: "" } };
    if (url === "/api/auth/totp-setup/u5") return { body: { qrCodeUri: "data:image/png;base64,QR", manualEntryKey: "K" } };
    return undefined;
  });
  renderWithProviders(<FirstTimeSetupPage />, { route: "/setup" });
  await userEvent.type(screen.getByLabelText("Email"), "new@demo.au");
  await userEvent.click(screen.getByRole("button", { name: "Continue" }));
  expect(await screen.findByRole("heading", { name: "Secure Your Account" })).toBeInTheDocument();
  expect(await screen.findByRole("button", { name: "Complete Setup" })).toBeInTheDocument();
});

test("failures: unknown account, server message, fallback", () => {
  expect(firstTimeFailure(new ApiError(404, "", { message: "User not found. Please contact your administrator." }))).toEqual({
    title: "Account lookup failed",
    message: "No account found with this email address. Please contact your administrator.",
  });
  expect(firstTimeFailure(new ApiError(500, "", null)).message).toBe("Failed to check account status");
  expect(firstTimeFailure("boom").message).toBe("An error occurred");
});

test("an invitation of a domain that requires single sign-on offers the provider, no password step (ADR 0024)", async () => {
  const message = "Your organization signs in with Contoso Entra. Use “Sign in with Contoso Entra”.";
  mockFetch((url) => {
    if (url === "/api/auth/first-time-login") {
      return {
        body: {
          requiresSetup: false,
          userId: null,
          hasPassword: false,
          message,
          email: "iva@contoso.edu.au",
          ssoProviderName: "Contoso Entra",
          ssoStartUrl: "/api/auth/sso/start?email=iva%40contoso.edu.au",
        },
      };
    }
    return undefined;
  });
  renderWithProviders(<FirstTimeSetupPage />, { route: "/auth/setup?token=abc" });
  const button = await screen.findByRole("link", { name: "Sign in with Contoso Entra" });
  expect(button).toHaveAttribute("href", "/api/auth/sso/start?email=iva%40contoso.edu.au");
  expect(screen.getByText(message)).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: "Complete Setup" })).not.toBeInTheDocument();
  expect(screen.queryByText("Invitation not valid")).not.toBeInTheDocument();
});
