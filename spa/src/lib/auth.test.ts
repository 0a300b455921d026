/** GET /api/auth/user through the typed client: the envelope's user, and a 401 as signed out (null). */
import { vi } from "vitest";
import { ApiError } from "./api";
import { fetchCurrentUser } from "./auth";
import { mockFetch } from "@/test/fetchMock";

afterEach(() => vi.unstubAllGlobals());

const user = {
  id: "u1",
  email: "a@b.au",
  firstName: "A",
  lastName: "B",
  organizationId: "o1",
  role: "admin",
  isActive: true,
  mustChangePassword: false,
  isTotpEnabled: false,
  lastLogin: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
};

test("the signed-in user is the envelope's user", async () => {
  const fetch = mockFetch((url) => (url === "/api/auth/user" ? { body: { user } } : undefined));
  await expect(fetchCurrentUser()).resolves.toEqual(user);
  expect(fetch.mock.calls[0][1]?.method).toBe("GET");
});

test("a 401 means signed out; other failures reach the caller", async () => {
  mockFetch((url) => (url === "/api/auth/user" ? { status: 401, body: { message: "Unauthorized" } } : undefined));
  await expect(fetchCurrentUser()).resolves.toBeNull();
  mockFetch((url) => (url === "/api/auth/user" ? { status: 500, body: { message: "Boom" } } : undefined));
  await expect(fetchCurrentUser()).rejects.toBeInstanceOf(ApiError);
});
