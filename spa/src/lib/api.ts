/**
 * The API client. Typed calls go through `client` (openapi-fetch, generated types in api-schema.d.ts,
 * produced from the server's OpenAPI schema — never hand-written). `apiFetch` is the raw helper for
 * downloads and uploads. Both send the session cookie, the CSRF header on unsafe methods, and the tab's
 * X-Client-Id (docs/behaviour/errors.md §1; docs/behaviour/live-events.md §6).
 *
 * Errors (docs/behaviour/errors.md §9): any non-OK answer throws ApiError whose message is
 * "<status>: <body text or status text>"; `body` holds the parsed JSON ({message, type, errors, ...}).
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./api-schema";
import { rememberActivity } from "./recentActivity";

export const CLIENT_ID: string = typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : Math.random().toString(36).slice(2);

export interface ApiErrorBody {
  message?: string;
  type?: string;
  errors?: { path: (string | number)[]; message: string }[];
  conflicts?: { type: string; severity: string; sessionIds: string[]; message: string }[];
  [key: string]: unknown;
}

export class ApiError extends Error {
  status: number;
  body: ApiErrorBody | null;
  constructor(status: number, text: string, body: ApiErrorBody | null) {
    super(`${status}: ${text}`);
    this.status = status;
    this.body = body;
  }
  /** The server's message, without the status prefix. */
  get serverMessage(): string | undefined {
    return this.body?.message;
  }
}

export function csrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function withHeaders(method: string, headers: Headers): Headers {
  if (UNSAFE.has(method.toUpperCase())) {
    headers.set("X-CSRFToken", csrfToken());
    headers.set("X-Client-Id", CLIENT_ID);
  }
  return headers;
}

/** Called on any 401 outside the auth area: the app sends the user to /auth after ~0.5 s. */
let unauthorizedHandler: (() => void) | null = null;
export function onUnauthorized(handler: () => void) {
  unauthorizedHandler = handler;
}

async function toError(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: ApiErrorBody | null = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.status === 401 && !new URL(response.url, location.origin).pathname.startsWith("/api/auth/")) {
    unauthorizedHandler?.();
  }
  return new ApiError(response.status, text || response.statusText, body);
}

const middleware: Middleware = {
  async onRequest({ request }) {
    withHeaders(request.method, request.headers);
    return request;
  },
  async onResponse({ response }) {
    if (!response.ok) throw await toError(response.clone());
    rememberActivity(response);
    return response;
  },
};

export const client = createClient<paths>({
  // Absolute against the page: openapi-fetch builds a Request, which needs a full URL outside a browser (vitest).
  baseUrl: typeof location !== "undefined" ? location.origin : "",
  // Looked up on every call, not captured when the module loads, so a replaced fetch (test stubs) is used.
  fetch: (request: Request) => globalThis.fetch(request),
  credentials: "same-origin",
});
client.use(middleware);

/**
 * Raw call for anything the typed client does not fit (file download, multipart upload).
 * JSON body and content type only when a payload exists.
 */
export async function apiFetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const headers = withHeaders(method, new Headers(init.headers));
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  const response = await fetch(path, { ...init, method, headers, body, credentials: "same-origin" });
  if (!response.ok) throw await toError(response);
  rememberActivity(response);
  return response;
}

/** JSON convenience over apiFetch. */
export async function apiJson<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const response = await apiFetch(path, init);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Per-field messages of a 400 validation error: {"cohortSize": "Cohort size must be at least 1"}. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiError && error.body?.errors) {
    for (const item of error.body.errors) {
      const key = item.path.join(".");
      if (!(key in out)) out[key] = item.message;
    }
  }
  return out;
}

/** The message to show in a failure toast: the server's message, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
