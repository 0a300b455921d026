import { vi } from "vitest";

type Handler = (url: string, init: RequestInit) => { status?: number; body?: unknown } | undefined;

/** Replaces fetch with a handler answering JSON; returns the mock to inspect the calls. */
export function mockFetch(handler: Handler) {
  const mock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    const answer = handler(url, init) ?? { status: 404, body: { message: "Not found" } };
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", mock);
  return mock;
}

/** The parsed JSON body of a mocked call. */
export function jsonBody(init: RequestInit | undefined): unknown {
  return init?.body ? JSON.parse(String(init.body)) : undefined;
}
