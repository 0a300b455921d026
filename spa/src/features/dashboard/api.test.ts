/** Dashboard calls through the typed client: the allocations' date range goes in the query string. */
import { vi } from "vitest";
import { mockFetch } from "@/test/fetchMock";
import { fetchDashboardStats, fetchTeacherAllocations } from "./api";

afterEach(() => vi.unstubAllGlobals());

test("the allocations are asked for the date range", async () => {
  const answer = { allocations: [], unallocatedTeachers: [{ id: "t1", name: "Ada", initials: "AL", maxWeeklyHours: 20 }] };
  const fetch = mockFetch((url) => (url.startsWith("/api/dashboard/teacher-allocations?") ? { body: answer } : undefined));
  await expect(fetchTeacherAllocations("2026-03-02", "2026-03-08")).resolves.toEqual(answer);
  expect(fetch.mock.calls[0][0]).toBe("/api/dashboard/teacher-allocations?start=2026-03-02&end=2026-03-08");
});

test("the stats answer is the server's", async () => {
  const stats = { activeCourses: 3, activeTeachers: 4, blockGroups: 2, weeklyHours: 38.5, efficiency: 91.2 };
  mockFetch((url) => (url === "/api/dashboard/stats" ? { body: stats } : undefined));
  await expect(fetchDashboardStats()).resolves.toEqual(stats);
});

test("the cards' change against 30 days ago (ADR 0018)", async () => {
  const { trendText } = await import("./components/StatCards");
  expect(trendText(12, 10)).toEqual({ text: "+20% from 30 days ago", up: true });
  expect(trendText(3, 0)).toEqual({ text: "+3 in the last 30 days", up: true });
  expect(trendText(5, 5)).toEqual({ text: "No change in 30 days", up: false });
  expect(trendText(4, 5)).toEqual({ text: "-20% from 30 days ago", up: false });
  expect(trendText(4, undefined).text).toBe("");
});
