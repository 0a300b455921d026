import { ApiError } from "@/lib/api";
import { minutes, refusalReason } from "./api";
import {
  addDays,
  atMinutes,
  capPerDay,
  slotRange,
  cardTime,
  colourOf,
  moreCardNode,
  sessionCardNode,
  sessionLabel,
  shadingEvents,
  weekday,
} from "@/components/calendar/calendarParts";

const session = {
  id: "s-1",
  actualDate: "2027-02-02",
  startTime: "09:00",
  endTime: "12:00",
  unit: { id: "u-1", code: "ICTCYS407", name: "Gather cyber security data" },
  blockGroup: { id: "g-1", code: "CYB-1", name: "Cyber 1" },
  teacher: { id: "t-1", name: "Sam Lee" },
  room: "B1.01",
  roomId: null,
  status: "scheduled",
  actualHours: 3,
  updatedAt: "2026-11-26T10:00:00Z",
};

test("dates and times move as text, across months and years", () => {
  expect(addDays("2027-01-31", 1)).toBe("2027-02-01");
  expect(addDays("2027-01-01", -1)).toBe("2026-12-31");
  expect(weekday("2027-02-02")).toBe("Tue");
  expect(minutes("09:30")).toBe(570);
  expect(atMinutes(570)).toBe("09:30");
  expect(sessionLabel(session)).toBe("ICTCYS407 Tue 09:00");
});

test("colours follow the chosen key; an unassigned session is grey by teacher", () => {
  expect(colourOf(session, "unit")).toBe(colourOf({ ...session, id: "other" }, "unit"));
  expect(colourOf({ ...session, teacher: null }, "teacher")).toBe("#5f5f5f");
  expect(colourOf({ ...session, status: "confirmed" }, "status")).not.toBe(colourOf(session, "status"));
});

test("whole-day shading spans the days; part-day leave its hours in the time grid only", () => {
  const holiday = { kind: "public_holiday", name: "Labour Day", start: "2027-03-08", end: "2027-03-08", startTime: null, endTime: null, teacherId: null };
  const leave = { kind: "leave", name: "Sam on leave", start: "2027-03-09", end: "2027-03-10", startTime: "13:00", endTime: "15:00", teacherId: "t-1" };
  const timed = shadingEvents([holiday, leave], false);
  expect(timed.map((e) => [e.start, e.end])).toEqual([
    ["2027-03-08T00:00", "2027-03-09T00:00"],
    ["2027-03-09T13:00", "2027-03-09T15:00"],
    ["2027-03-10T13:00", "2027-03-10T15:00"],
  ]);
  const days = shadingEvents([leave], true);
  expect(days).toEqual([expect.objectContaining({ start: "2027-03-09", end: "2027-03-11", allDay: true, classNames: ["bp-shade-leave"] })]);
});

test("unavailable time: its hours in the time grid; in the day grids only a day it fills", () => {
  const span = (day: string, startTime: string, endTime: string) => ({
    kind: "unavailable",
    name: "Unavailable",
    start: day,
    end: day,
    startTime,
    endTime,
    teacherId: "t-1",
  });
  const spans = [span("2027-08-03", "07:00", "22:00"), span("2027-08-04", "07:00", "08:00")];
  expect(shadingEvents(spans, false)).toEqual([
    expect.objectContaining({
      start: "2027-08-03T07:00",
      end: "2027-08-03T22:00",
      classNames: ["bp-shade-unavailable"],
      extendedProps: { reason: "Unavailable" },
    }),
    expect.objectContaining({ start: "2027-08-04T07:00", end: "2027-08-04T08:00", classNames: ["bp-shade-unavailable"] }),
  ]);
  expect(shadingEvents(spans, true)).toEqual([
    expect.objectContaining({ start: "2027-08-03", end: "2027-08-04", allDay: true, classNames: ["bp-shade-unavailable"] }),
  ]);
});

test("a card is text only: data never becomes markup", () => {
  const node = sessionCardNode({ ...session, room: "<img src=x onerror=alert(1)>" }, "09:00 - 12:00", "Kim");
  expect(node.querySelector("img")).toBeNull();
  expect(node.textContent).toContain("<img src=x onerror=alert(1)>");
  expect(node.textContent).toContain("Held by Kim");
});

test("a refusal says why in words: the conflicts of a 409, the other person's change of a 412", () => {
  const clash = new ApiError(409, "", {
    type: "conflict",
    conflicts: [{ type: "teacher_double_booked", severity: "hard", sessionIds: [], message: "Sam Lee is already teaching." }],
  });
  expect(refusalReason(clash)).toEqual({ status: 409, reason: "Sam Lee is already teaching." });
  expect(refusalReason(new ApiError(412, "", { type: "stale", message: "stale" })).reason).toMatch(/Someone else changed this session/);
  expect(refusalReason(new ApiError(400, "", { message: "Validation failed", errors: [{ path: ["startTime"], message: "Bad time" }] })).reason).toBe(
    "Bad time",
  );
  expect(refusalReason(new TypeError("Failed to fetch")).status).toBe(0);
});

test("a crowded day of the month and term views shows its first cards by time, what is kept, and a count of the rest", () => {
  const at = (id: string, actualDate: string, startTime: string) => ({ id, actualDate, startTime });
  const busy = ["15:00", "08:00", "13:00", "09:00", "10:00", "11:00"].map((t, i) => at(`b${i}`, "2027-02-02", t));
  const quiet = [at("q0", "2027-02-03", "09:00"), at("q1", "2027-02-03", "13:00")];
  const four = ["09:00", "10:00", "11:00", "12:00"].map((t, i) => at(`f${i}`, "2027-02-04", t));
  const { shown, more } = capPerDay([...busy, ...quiet, ...four], 4, new Set(["b0"]));
  // The busy day: its three earliest (08:00, 09:00, 10:00), the kept 15:00 one, and "+2 more" (11:00, 13:00).
  expect(shown.filter((s) => s.actualDate === "2027-02-02").map((s) => s.startTime)).toEqual(["08:00", "09:00", "10:00", "15:00"]);
  expect(more).toEqual([{ date: "2027-02-02", count: 2 }]);
  // A day of at most four shows all of them, in the order given.
  expect(shown.filter((s) => s.actualDate !== "2027-02-02").map((s) => s.id)).toEqual(["q0", "q1", "f0", "f1", "f2", "f3"]);
  expect(moreCardNode(2).textContent).toBe("+2 more");
  // Without anything kept, the busy day shows three and counts three.
  expect(capPerDay(busy, 4).more).toEqual([{ date: "2027-02-02", count: 3 }]);
});

test("a card's time: the start in the day grids, start and end in the time grid, none without a start", () => {
  const start = new Date(2027, 1, 2, 9, 0);
  const end = new Date(2027, 1, 2, 12, 30);
  expect(cardTime(start, end, true)).toBe("09:00 - 12:30");
  expect(cardTime(start, end, false)).toBe("09:00");
  expect(cardTime(start, null, true)).toBe("09:00");
  expect(cardTime(null, null, true)).toBe("");
});

test("the time grid shows 07:00-22:00, widened to whole hours for a session outside them", () => {
  expect(slotRange([])).toEqual({ min: "07:00:00", max: "22:00:00" });
  expect(slotRange([{ startTime: "09:00:00", endTime: "12:00:00" }])).toEqual({ min: "07:00:00", max: "22:00:00" });
  expect(slotRange([{ startTime: "05:30:00", endTime: "06:00:00" }])).toEqual({ min: "05:00:00", max: "22:00:00" });
  expect(slotRange([{ startTime: "21:00", endTime: "22:30" }])).toEqual({ min: "07:00:00", max: "23:00:00" });
  expect(slotRange([{ startTime: "20:00:00", endTime: "24:00:00" }])).toEqual({ min: "07:00:00", max: "24:00:00" });
});
