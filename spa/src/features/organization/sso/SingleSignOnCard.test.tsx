/** The organization page's "Single sign-on" card (ADR 0022): validation, the write-only secret, saving, errors, test. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { SingleSignOnCard } from "./SingleSignOnCard";

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

const REDIRECT = "https://blockplan.example.edu.au/api/auth/sso/callback";
const user = (id: string, firstName: string, role: string, isActive = true) => ({
  id,
  email: `${firstName.toLowerCase()}@contoso.edu.au`,
  firstName,
  lastName: "Admin",
  role,
  isActive,
  lastLogin: null,
  setupPending: false,
});
const USERS = [user("a1", "Ada", "admin"), user("a2", "Old", "admin", false), user("u1", "Uma", "user")];
const NOT_CONFIGURED = { configured: false, redirectUri: REDIRECT };
const CONFIGURED = {
  configured: true,
  name: "Contoso Entra",
  issuerUrl: "https://login.contoso.example/v2.0",
  clientId: "client-123",
  hasClientSecret: true,
  domains: ["contoso.edu.au"],
  mode: "optional",
  breakGlassUserId: null,
  createAccounts: false,
  enabled: true,
  redirectUri: REDIRECT,
  updatedAt: "2026-03-01T10:00:00.123Z",
};

type Answer = { status?: number; body?: unknown };
function mockApi(
  config: object,
  put?: (body: Record<string, unknown>, init: RequestInit) => Answer,
  extra?: (url: string, init: RequestInit) => Answer | undefined,
) {
  return mockFetch((url, init) => {
    if (url === "/api/admin/users") return { body: USERS };
    if (url === "/api/organization/sso" && (init.method ?? "GET") === "GET") return { body: config };
    if (url === "/api/organization/sso" && init.method === "PUT" && put) return put(jsonBody(init) as Record<string, unknown>, init);
    return extra?.(url, init);
  });
}

const card = async () => within(await screen.findByRole("form", { name: "Single sign-on" }));
const puts = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([url, init]) => url === "/api/organization/sso" && init?.method === "PUT");

test("a new configuration: every required field checked before sending; the redirect URI to register", async () => {
  const fetch = mockApi(NOT_CONFIGURED);
  renderWithProviders(<SingleSignOnCard />);
  const form = await card();
  expect(screen.getByRole("heading", { name: "Single sign-on" })).toBeInTheDocument();
  expect(form.getByTestId("sso-redirect-uri")).toHaveTextContent(REDIRECT);
  expect(form.getByText("Redirect URI")).toBeInTheDocument();
  expect(form.getByText("Register this redirect URI with your identity provider.")).toBeInTheDocument();
  expect(form.getByRole("button", { name: "Copy" })).toBeInTheDocument();
  expect(form.getByLabelText(/Client secret/)).not.toHaveAttribute("placeholder", "Stored — leave blank to keep");
  expect(form.queryByRole("button", { name: "Remove single sign-on" })).not.toBeInTheDocument();

  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  expect(await form.findByText("Provider name is required")).toBeInTheDocument();
  expect(form.getByText("Enter the issuer URL, starting with https://")).toBeInTheDocument();
  expect(form.getByText("Client ID is required")).toBeInTheDocument();
  expect(form.getByText("Client secret is required")).toBeInTheDocument();
  expect(form.getByText("Add at least one email domain")).toBeInTheDocument();
  expect(puts(fetch)).toHaveLength(0);
});

test("required mode needs a break-glass administrator (an active admin); the first save sends the secret, no If-Match", async () => {
  const fetch = mockApi(NOT_CONFIGURED, (body) => ({ body: { ...CONFIGURED, ...body, hasClientSecret: true, clientSecret: undefined } }));
  renderWithProviders(<SingleSignOnCard />);
  const form = await card();
  await userEvent.type(form.getByLabelText(/Provider name/), "Contoso Entra");
  await userEvent.type(form.getByLabelText(/Issuer URL/), "https://login.contoso.example/v2.0");
  await userEvent.type(form.getByLabelText(/Client ID/), "client-123");
  await userEvent.type(form.getByLabelText(/Client secret/), "s3cret");
  await userEvent.type(form.getByLabelText(/Email domains/), "contoso.edu.au{enter}");
  await userEvent.click(form.getByLabelText("Required"));
  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  expect(await form.findByText("Name a break-glass administrator who can still sign in with a password")).toBeInTheDocument();
  expect(puts(fetch)).toHaveLength(0);

  // Only the organization's active administrators are offered.
  await userEvent.click(form.getByLabelText(/Break-glass administrator/));
  const options = await screen.findAllByRole("option", { hidden: true });
  expect(options.map((o) => o.textContent)).toEqual(["Ada Admin (ada@contoso.edu.au)"]);
  await userEvent.click(options[0]);
  await userEvent.click(form.getByLabelText(/Create accounts for new staff/));
  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  await waitFor(() => expect(puts(fetch)).toHaveLength(1));
  const [, init] = puts(fetch)[0];
  expect(jsonBody(init)).toEqual({
    name: "Contoso Entra",
    issuerUrl: "https://login.contoso.example/v2.0",
    clientId: "client-123",
    clientSecret: "s3cret",
    domains: ["contoso.edu.au"],
    mode: "required",
    breakGlassUserId: "a1",
    createAccounts: true,
    enabled: true,
  });
  expect(new Headers(init?.headers).get("If-Match")).toBeNull();
});

test("a stored secret is never shown: blank with 'Stored — leave blank to keep'; saving keeps it and sends If-Match", async () => {
  const fetch = mockApi(CONFIGURED, (body) => ({ body: { ...CONFIGURED, ...body } }));
  renderWithProviders(<SingleSignOnCard />);
  const form = await card();
  const secret = form.getByLabelText(/Client secret/);
  expect(secret).toHaveValue("");
  expect(secret).toHaveAttribute("placeholder", "Stored — leave blank to keep");
  expect(secret).toHaveAttribute("type", "password");
  expect(form.getByLabelText(/Provider name/)).toHaveValue("Contoso Entra");
  expect(form.getByText("contoso.edu.au")).toBeInTheDocument();
  expect(form.getByRole("button", { name: "Remove single sign-on" })).toBeInTheDocument();

  // A domain typed without Enter is saved too.
  await userEvent.type(form.getByLabelText(/Email domains/), "staff.contoso.edu.au");
  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  await waitFor(() => expect(puts(fetch)).toHaveLength(1));
  const [, init] = puts(fetch)[0];
  const body = jsonBody(init) as Record<string, unknown>;
  expect(body).not.toHaveProperty("clientSecret");
  expect(body).toMatchObject({
    name: "Contoso Entra",
    domains: ["contoso.edu.au", "staff.contoso.edu.au"],
    mode: "optional",
    breakGlassUserId: null,
    enabled: true,
  });
  expect(new Headers(init?.headers).get("If-Match")).toBe(`"${CONFIGURED.updatedAt}"`);
  expect(form.getByLabelText(/Client secret/)).toHaveValue("");
});

test("the server's 400 errors go to their fields, a 409 to the domains, a 412 shows the stale alert", async () => {
  let answer: Answer = {
    status: 400,
    body: {
      message: "Validation failed",
      type: "validation_error",
      errors: [
        { path: ["issuerUrl"], message: "The issuer URL has no query or fragment" },
        { path: ["breakGlassUserId"], message: "Choose an active administrator of this organization" },
      ],
    },
  };
  const fetch = mockApi(CONFIGURED, () => answer);
  renderWithProviders(<SingleSignOnCard />);
  const form = await card();
  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  expect(await form.findAllByText("The issuer URL has no query or fragment")).not.toHaveLength(0);
  expect(form.getAllByText("Choose an active administrator of this organization")).not.toHaveLength(0);
  expect(form.getByLabelText(/Issuer URL/)).toHaveAttribute("aria-invalid", "true");

  const taken = "contoso.edu.au is already covered by another organization's single sign-on";
  answer = { status: 409, body: { message: taken, type: "duplicate_code", errors: [{ path: ["domains"], message: taken }] } };
  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  expect(await form.findAllByText(taken)).not.toHaveLength(0);

  answer = { status: 412, body: { message: "Stale", type: "stale" } };
  await userEvent.click(form.getByRole("button", { name: "Save single sign-on" }));
  expect(await form.findByTestId("stale-alert")).toHaveTextContent("Changed by someone else");
  expect(puts(fetch)).toHaveLength(3);
});

test("Test connection posts the issuer URL as typed: green with what it found, red with the reason", async () => {
  let ok = true;
  const fetch = mockApi(CONFIGURED, undefined, (url) => {
    if (url !== "/api/organization/sso/test") return undefined;
    return ok
      ? {
          body: {
            ok: true,
            message: "Found https://login.contoso.example/v2.0 with 2 signing key(s).",
            issuer: "https://login.contoso.example/v2.0",
            authorizationEndpoint: "https://login.contoso.example/authorize",
            tokenEndpoint: "https://login.contoso.example/token",
            userinfoEndpoint: null,
            jwksUri: "https://login.contoso.example/keys",
            signingKeyCount: 2,
            scopesSupported: ["openid", "email"],
          },
        }
      : { body: { ok: false, message: "https://wrong.example answered HTTP 404", signingKeyCount: 0, scopesSupported: [] } };
  });
  renderWithProviders(<SingleSignOnCard />);
  const form = await card();
  await userEvent.click(form.getByRole("button", { name: "Test connection" }));
  const found = await form.findByTestId("sso-test-result");
  expect(found).toHaveAttribute("data-ok", "true");
  expect(found).toHaveTextContent("Found https://login.contoso.example/v2.0 with 2 signing key(s).");
  expect(found).toHaveTextContent("https://login.contoso.example/authorize");
  expect(found).toHaveTextContent("https://login.contoso.example/token");
  expect(found).toHaveTextContent("https://login.contoso.example/keys");
  const tests = () => fetch.mock.calls.filter(([url]) => url === "/api/organization/sso/test");
  expect(jsonBody(tests()[0][1])).toEqual({ issuerUrl: "https://login.contoso.example/v2.0" });

  ok = false;
  await userEvent.clear(form.getByLabelText(/Issuer URL/));
  await userEvent.type(form.getByLabelText(/Issuer URL/), "https://wrong.example");
  await userEvent.click(form.getByRole("button", { name: "Test connection" }));
  await waitFor(() => expect(form.getByTestId("sso-test-result")).toHaveAttribute("data-ok", "false"));
  expect(form.getByTestId("sso-test-result")).toHaveTextContent("https://wrong.example answered HTTP 404");
  expect(jsonBody(tests()[1][1])).toEqual({ issuerUrl: "https://wrong.example" });
});

test("each domain shows its state; an unverified one its TXT record and Verify now, with the server's reason when not found", async () => {
  const record = "blockplan-domain-verification=tok-123";
  const states = (staffVerified: boolean) => [
    { domain: "contoso.edu.au", verified: true, verifiedAt: "2026-03-01T10:00:00Z", recordName: "contoso.edu.au", recordValue: "x" },
    { domain: "staff.contoso.edu.au", verified: staffVerified, verifiedAt: null, recordName: "staff.contoso.edu.au", recordValue: record },
  ];
  let verified = false;
  let attempts = 0;
  const fetch = mockFetch((url) => {
    if (url === "/api/admin/users") return { body: USERS };
    if (url === "/api/organization/sso") return { body: { ...CONFIGURED, domainStates: states(verified) } };
    if (url === "/api/organization/sso/domains/verify") {
      attempts += 1;
      if (attempts === 1) {
        const message = `No TXT record ${record} found at staff.contoso.edu.au yet.`;
        return { status: 400, body: { message: "Validation failed", type: "validation_error", errors: [{ path: ["domain"], message }] } };
      }
      verified = true;
      return { body: { ...CONFIGURED, domainStates: states(true) } };
    }
    return undefined;
  });
  renderWithProviders(<SingleSignOnCard />);
  const form = await card();
  const rows = await form.findAllByTestId("sso-domain");
  expect(rows.map((r) => [r.dataset.domain, r.dataset.verified])).toEqual([
    ["contoso.edu.au", "true"],
    ["staff.contoso.edu.au", "false"],
  ]);
  const staff = within(rows[1]);
  expect(staff.getByTestId("sso-domain-record")).toHaveTextContent(record);
  expect(within(rows[0]).queryByRole("button", { name: "Verify now" })).not.toBeInTheDocument();

  await userEvent.click(staff.getByRole("button", { name: "Verify now" }));
  expect(await staff.findByRole("alert")).toHaveTextContent(/No TXT record/);
  const verifyCall = fetch.mock.calls.find(([url]) => url === "/api/organization/sso/domains/verify");
  expect(jsonBody(verifyCall![1]!)).toEqual({ domain: "staff.contoso.edu.au" });

  await userEvent.click(staff.getByRole("button", { name: "Verify now" }));
  await waitFor(() => expect(form.getAllByTestId("sso-domain")[1].dataset.verified).toBe("true"));
  expect(form.queryByRole("button", { name: "Verify now" })).not.toBeInTheDocument();
});
