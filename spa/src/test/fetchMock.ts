import { vi } from "vitest";

type Handler = (url: string, init: RequestInit) => { status?: number; body?: unknown } | undefined;

/**
 * A call as the handler and the returned mock see it: a same-origin URL as its path (and query), and a
 * Request (the typed client's calls) unpacked into method, headers and body text.
 */
async function normalise(input: RequestInfo | URL, init: RequestInit): Promise<[string, RequestInit]> {
  let url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
  if (typeof location !== "undefined" && url.startsWith(`${location.origin}/`)) {
    const parsed = new URL(url);
    url = parsed.pathname + parsed.search;
  }
  if (typeof input === "string" || input instanceof URL) return [url, init];
  const body = await input.clone().text();
  return [url, { ...init, method: input.method, headers: input.headers, body: body || undefined }];
}

/** Replaces fetch with a handler answering JSON; returns the mock to inspect the calls (as `(url, init)`). */
export function mockFetch(handler: Handler) {
  const mock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const answer = handler(url, init) ?? { status: 404, body: { message: "Not found" } };
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const [url, normalised] = await normalise(input, init);
    return mock(url, normalised);
  });
  return mock;
}

/** The parsed JSON body of a mocked call. */
export function jsonBody(init: RequestInit | undefined): unknown {
  return init?.body ? JSON.parse(String(init.body)) : undefined;
}
