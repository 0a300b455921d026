/** Settings through the typed client: 404 means none saved (null), the answer narrowed, the PUT body. */
import { vi } from "vitest";
import { ApiError } from "@/lib/api";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { DEFAULT_SETTINGS, fetchSettings, saveSettings } from "./api";

afterEach(() => vi.unstubAllGlobals());

const saved = {
  theme: "dark",
  preferences: { dateFormat: "YYYY-MM-DD", timeFormat: "12h", timezone: "Australia/Perth", language: "en", compactView: true },
  updatedAt: "2026-01-01T00:00:00Z",
};

test("a 404 means no saved settings; other failures reach the caller", async () => {
  mockFetch(() => undefined);
  await expect(fetchSettings()).resolves.toBeNull();
  mockFetch(() => ({ status: 500, body: { message: "Boom" } }));
  await expect(fetchSettings()).rejects.toBeInstanceOf(ApiError);
});

test("the saved settings, unknown values falling back to the defaults", async () => {
  mockFetch((url) => (url === "/api/auth/settings" ? { body: saved } : undefined));
  await expect(fetchSettings()).resolves.toMatchObject({ theme: "dark", preferences: saved.preferences });
  mockFetch((url) => (url === "/api/auth/settings" ? { body: { ...saved, theme: "neon" } } : undefined));
  await expect(fetchSettings()).resolves.toMatchObject({ theme: "system" });
});

test("a save PUTs the theme and the five preferences", async () => {
  const fetch = mockFetch((url, init) => (url === "/api/auth/settings" && init.method === "PUT" ? { body: saved } : undefined));
  await saveSettings(DEFAULT_SETTINGS);
  expect(jsonBody(fetch.mock.calls[0][1])).toEqual(DEFAULT_SETTINGS);
});
