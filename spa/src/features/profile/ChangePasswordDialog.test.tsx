import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { ChangePasswordDialog } from "./ChangePasswordDialog";

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

const field = (label: string) => screen.getByLabelText(label, { selector: "input" });

test("submit stays disabled until all three fields are filled", async () => {
  mockFetch(() => undefined);
  renderWithProviders(<ChangePasswordDialog opened onClose={() => {}} />);
  const submit = await screen.findByRole("button", { name: "Change Password" });
  expect(submit).toBeDisabled();
  await userEvent.type(field("Current Password"), "old");
  await userEvent.type(field("New Password"), "x");
  expect(submit).toBeDisabled();
  await userEvent.type(field("Confirm New Password"), "x");
  expect(submit).toBeEnabled();
});

test("mismatch and weakness messages; a valid change is sent with PUT", async () => {
  const fetch = mockFetch((url) => (url === "/api/auth/change-password" ? { body: { message: "Password changed" } } : undefined));
  renderWithProviders(<ChangePasswordDialog opened onClose={() => {}} />);
  await userEvent.type(await screen.findByLabelText("Current Password", { selector: "input" }), "Old-Password-1!");
  await userEvent.type(field("New Password"), "Short-1!");
  await userEvent.type(field("Confirm New Password"), "Different-1!");
  await userEvent.click(screen.getByRole("button", { name: "Change Password" }));
  expect(await screen.findByText("Password mismatch")).toBeInTheDocument();
  expect(screen.getByText("New password and confirmation do not match.")).toBeInTheDocument();

  await userEvent.clear(field("Confirm New Password"));
  await userEvent.type(field("Confirm New Password"), "Short-1!");
  await userEvent.click(screen.getByRole("button", { name: "Change Password" }));
  expect(await screen.findByText("Password too weak")).toBeInTheDocument();
  expect(screen.getByText("Password must be at least 12 characters long.")).toBeInTheDocument();
  expect(fetch).not.toHaveBeenCalled();

  await userEvent.clear(field("New Password"));
  await userEvent.clear(field("Confirm New Password"));
  await userEvent.type(field("New Password"), "Long-Enough-Pass-9");
  await userEvent.type(field("Confirm New Password"), "Long-Enough-Pass-9");
  await userEvent.click(screen.getByRole("button", { name: "Change Password" }));
  await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
  expect(fetch.mock.calls[0][1]?.method).toBe("PUT");
  expect(jsonBody(fetch.mock.calls[0][1])).toMatchObject({ currentPassword: "Old-Password-1!", newPassword: "Long-Enough-Pass-9" });
});
