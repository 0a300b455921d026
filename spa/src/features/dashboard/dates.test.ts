import { allocationBadge, formatTime12, isoDate, plannerRange, shiftAnchor, startOfWeek, workloadColor } from "./dates";

test("weeks start on Monday", () => {
  expect(isoDate(startOfWeek(new Date(2026, 2, 1)))).toBe("2026-02-23"); // Sunday 1 March 2026
  expect(isoDate(startOfWeek(new Date(2026, 2, 2)))).toBe("2026-03-02"); // Monday
  const week = plannerRange(new Date(2026, 2, 4), "week");
  expect([isoDate(week.start), isoDate(week.end)]).toEqual(["2026-03-02", "2026-03-08"]);
});

test("months cover the calendar month; previous/next move one week or one month", () => {
  const month = plannerRange(new Date(2026, 1, 14), "month");
  expect([isoDate(month.start), isoDate(month.end)]).toEqual(["2026-02-01", "2026-02-28"]);
  expect(isoDate(shiftAnchor(new Date(2026, 2, 4), "week", 1))).toBe("2026-03-11");
  expect(isoDate(shiftAnchor(new Date(2026, 0, 31), "month", 1))).toBe("2026-02-01");
  expect(isoDate(shiftAnchor(new Date(2026, 0, 31), "month", -1))).toBe("2025-12-01");
});

test("times show as h:mm a", () => {
  expect(formatTime12("09:00")).toBe("9:00 AM");
  expect(formatTime12("12:30:00")).toBe("12:30 PM");
  expect(formatTime12("00:05")).toBe("12:05 AM");
  expect(formatTime12("17:45")).toBe("5:45 PM");
});

test("workload colours: 95+ warning, 85-94 success, below 85 primary", () => {
  expect(workloadColor(100)).toBe("yellow");
  expect(workloadColor(95)).toBe("yellow");
  expect(workloadColor(94)).toBe("green");
  expect(workloadColor(85)).toBe("green");
  expect(workloadColor(84)).toBe("indigo");
});

test("badge styles: confirmed default, cancelled destructive, tentative secondary, others outline", () => {
  expect(allocationBadge("confirmed").variant).toBe("filled");
  expect(allocationBadge("cancelled")).toEqual({ variant: "filled", color: "red" });
  expect(allocationBadge("tentative").variant).toBe("light");
  expect(allocationBadge("scheduled").variant).toBe("outline");
});
