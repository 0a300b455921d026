import { ApiError } from "@/lib/api";
import { minutes, refusalReason } from "./api";
import { addDays, atMinutes, colourOf, sessionCardNode, sessionLabel, shadingEvents, weekday } from "@/components/calendar/calendarParts";

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
