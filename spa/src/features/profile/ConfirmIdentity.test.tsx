import { ModalsProvider } from "@mantine/modals";
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { pageNavigation } from "@/lib/ssoSession";
import { confirmIdentity, providerConfirmUrl } from "./ConfirmIdentity";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const me = { user: { id: "u1", email: "sam@tafe.example.edu.au", firstName: "Sam", lastName: "Staff", role: "user" } };

function open() {
  renderWithProviders(
    <ModalsProvider>
      <p>page</p>
    </ModalsProvider>,
  );
  void act(() => {
    void confirmIdentity();
  });
}

test("a user whose domain signs in with a provider can confirm with it instead of a password", async () => {
  mockFetch((url) => {
    if (url === "/api/auth/user") return { body: me };
    if (url === "/api/auth/sso/discover") return { body: { sso: true, providerName: "Contoso Entra", startUrl: "/x", required: false } };
    return undefined;
  });
  const assign = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
  open();
  await userEvent.click(await screen.findByRole("button", { name: "Confirm with Contoso Entra" }));
  expect(assign).toHaveBeenCalledWith(providerConfirmUrl(window.location.pathname + window.location.search));
  expect(providerConfirmUrl("/profile?tab=a")).toBe("/api/auth/sso/start?reauth=1&next=%2Fprofile%3Ftab%3Da");
});

test("without a provider only the password and the code are offered", async () => {
  const fetch = mockFetch((url) => {
    if (url === "/api/auth/user") return { body: me };
    if (url === "/api/auth/sso/discover") return { body: { sso: false, providerName: null, startUrl: null, required: false } };
    return undefined;
  });
  open();
  expect(await screen.findByLabelText("Current Password", { selector: "input" })).toBeInTheDocument();
  await vi.waitFor(() => expect(fetch.mock.calls.some(([url]) => url === "/api/auth/sso/discover")).toBe(true));
  expect(screen.queryByRole("button", { name: /^Confirm with / })).toBeNull();
});
