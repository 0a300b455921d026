import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { AccountSetupForm, PASSWORD_HINT } from "./AccountSetupForm";
import { accountSetupSchema } from "./schemas";

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

const setupAnswer = { body: { qrCodeUri: "data:image/png;base64,QR", manualEntryKey: "KEY234567" } };

test("shows the loading text, then the QR image, the manual key and the password hint", async () => {
  mockFetch((url) => (url.startsWith("/api/auth/totp-setup/") ? setupAnswer : undefined));
  renderWithProviders(<AccountSetupForm userId="u1" onBack={() => {}} />);
  expect(screen.getByText("Loading authenticator setup...")).toBeInTheDocument();
  expect(await screen.findByText("KEY234567")).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Copy manual entry key" })).toBeInTheDocument();
  expect(screen.getByText(PASSWORD_HINT)).toBeInTheDocument();
  expect(screen.getByPlaceholderText("Enter 6-digit code")).toBeInTheDocument();
});

test("validation messages: length, mismatch on confirmPassword, TOTP length", async () => {
  const fetch = mockFetch((url) => (url.startsWith("/api/auth/totp-setup/") ? setupAnswer : undefined));
  renderWithProviders(<AccountSetupForm userId="u1" onBack={() => {}} />);
  await screen.findByText("KEY234567");
  await userEvent.type(screen.getByLabelText("Password", { selector: "input" }), "short");
  await userEvent.type(screen.getByLabelText("Confirm Password"), "other");
  await userEvent.click(screen.getByRole("button", { name: "Complete Setup" }));
  expect(await screen.findByText("Password must be at least 12 characters")).toBeInTheDocument();
  expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
  expect(screen.getByText("TOTP code must be 6 digits")).toBeInTheDocument();
  expect(fetch).toHaveBeenCalledTimes(1);
});

test("each password rule has its own message", () => {
  const messages = (password: string) => {
    const result = accountSetupSchema.safeParse({ password, confirmPassword: password, totpCode: "123456" });
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };
  expect(messages("ALLUPPERCASE1!")).toContain("Password must contain at least one lowercase letter");
  expect(messages("alllowercase1!")).toContain("Password must contain at least one uppercase letter");
  expect(messages("NoNumbersHere!")).toContain("Password must contain at least one number");
  expect(messages("NoSpecials1234")).toContain("Password must contain at least one special character");
  expect(messages("Good-Password-42")).toEqual([]);
});

test("a valid form sends userId, password, confirmPassword and totpCode", async () => {
  const fetch = mockFetch((url) => {
    if (url.startsWith("/api/auth/totp-setup/")) return setupAnswer;
    if (url === "/api/auth/setup-password") return { body: { user: { id: "u1", email: "x@y.au", firstName: "", lastName: "", role: "user" } } };
    return undefined;
  });
  renderWithProviders(<AccountSetupForm userId="u1" onBack={() => {}} />);
  await screen.findByText("KEY234567");
  await userEvent.type(screen.getByLabelText("Password", { selector: "input" }), "Good-Password-42");
  await userEvent.type(screen.getByLabelText("Confirm Password"), "Good-Password-42");
  await userEvent.type(screen.getByLabelText("Authenticator Code"), "654321");
  await userEvent.click(screen.getByRole("button", { name: "Complete Setup" }));
  await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  expect(jsonBody(fetch.mock.calls[1][1])).toEqual({ userId: "u1", password: "Good-Password-42", confirmPassword: "Good-Password-42", totpCode: "654321" });
});
