/**
 * The typed client (openapi-fetch + lib/api middleware) as the feature modules use it: the request it
 * sends, and that a non-OK answer reaches callers as the ApiError the forms read (fieldErrors, 409, 412).
 */
import { vi } from "vitest";
import { ApiError, client, errorMessage, fieldErrors } from "@/lib/api";
import { fetchCourse, fetchCourses } from "./courses";

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

function answer(status: number, body: unknown) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const text = await request.text();
      const url = new URL(request.url);
      calls.push({ method: request.method, path: url.pathname + url.search, headers: request.headers, body: text ? JSON.parse(text) : undefined });
      return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

const course = {
  id: "c-1",
  code: "ICT40120",
  name: "Certificate IV in IT",
  level: "certificate_iv",
  description: "",
  isActive: true,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-02T00:00:00Z",
};

afterEach(() => vi.unstubAllGlobals());

test("a GET fills the path parameter and answers the parsed body", async () => {
  const calls = answer(200, course);
  await expect(fetchCourse("c-1")).resolves.toEqual(course);
  expect(calls).toHaveLength(1);
  expect(calls[0].method).toBe("GET");
  expect(calls[0].path).toBe("/api/courses/c-1");
  answer(200, [course]);
  await expect(fetchCourses()).resolves.toEqual([course]);
});

test("a PUT sends the JSON body, If-Match, CSRF and client id headers", async () => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server that set the CSRF cookie
  document.cookie = "csrftoken=tok";
  const calls = answer(200, course);
  const values = { code: "ICT40120", name: "Cert IV", level: "certificate_iv" as const, description: "", isActive: true };
  await client.PUT("/api/courses/{course_id}", { params: { path: { course_id: "c-1" } }, body: values, headers: { "If-Match": course.updatedAt } });
  expect(calls[0].method).toBe("PUT");
  expect(calls[0].body).toEqual(values);
  expect(calls[0].headers.get("If-Match")).toBe(course.updatedAt);
  expect(calls[0].headers.get("X-CSRFToken")).toBe("tok");
  expect(calls[0].headers.get("X-Client-Id")).toBeTruthy();
  expect(calls[0].headers.get("Content-Type")).toBe("application/json");
});

test("a 400 rejects with the ApiError whose field errors the forms show", async () => {
  answer(400, { message: "Validation failed", type: "validation", errors: [{ path: ["code"], message: "Code is required" }] });
  const error = await fetchCourse("c-1").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  expect(fieldErrors(error)).toEqual({ code: "Code is required" });
  expect(errorMessage(error, "fallback")).toBe("Validation failed");
});

test.each([
  [409, "conflict"],
  [412, "stale"],
])("a %i rejects with the ApiError carrying the server's type", async (status, type) => {
  answer(status, { message: "Changed elsewhere", type });
  const error = await client.DELETE("/api/courses/{course_id}", { params: { path: { course_id: "c-1" } } }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
  expect((error as ApiError).body?.type).toBe(type);
  expect((error as ApiError).message).toBe(`${status}: ${JSON.stringify({ message: "Changed elsewhere", type })}`);
});

test("a 204 answers no data", async () => {
  const calls = answer(204, null);
  const { data } = await client.DELETE("/api/courses/{course_id}", { params: { path: { course_id: "c-1" } } });
  expect(data).toBeUndefined();
  expect(calls[0].method).toBe("DELETE");
});
