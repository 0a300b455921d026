import { groupSessions, localNow, nowAndNext } from "./DisplayBoardPage";

const session = (id: string, start: string, end: string, room: string, status = "scheduled") => ({
  id,
  startTime: start,
  endTime: end,
  room,
  status,
  unit: { code: "U1", name: "Unit" },
  blockGroup: { code: `BG-${id}`, name: "Group" },
  teacherName: null,
});

test("sessions are grouped by room, blank rooms under TBA", () => {
  const groups = groupSessions({
    groupBy: "room",
    sessions: [session("a", "09:00:00", "12:00:00", "B2"), session("b", "13:00:00", "16:00:00", ""), session("c", "13:00:00", "16:00:00", "B2")],
  } as never);
  expect(groups.map(([k, v]) => [k, v.length])).toEqual([
    ["B2", 2],
    ["TBA", 1],
  ]);
});

test("now and next skip cancelled sessions", () => {
  const list = [
    session("a", "09:00:00", "12:00:00", "B2", "cancelled"),
    session("b", "10:00:00", "11:00:00", "B2"),
    session("c", "13:00:00", "16:00:00", "B2"),
  ];
  const { now, next } = nowAndNext(list as never, 10 * 60 + 30);
  expect(now?.id).toBe("b");
  expect(next?.id).toBe("c");
});

test("local wall clock follows the organization's timezone", () => {
  // 2026-11-23T13:30:00Z is 00:30 on the 24th in Melbourne (UTC+11).
  const local = localNow("Australia/Melbourne", new Date("2026-11-23T13:30:00Z"));
  expect(local.date).toBe("2026-11-24");
  expect(local.clock).toBe("00:30");
});

describe("a change concerns a wall display only on its day (ADR 0025)", () => {
  const change = (date: string, before: string | null) => ({
    entity: "timetable_session" as const,
    ids: ["s"],
    sessions: [{ id: "s", blockGroupId: "g", teacherId: null, date }],
    before: before === null ? [] : [{ id: "s", blockGroupId: "g", teacherId: null, date: before }],
  });

  test("a session of another day is ignored; one moved to or from the board's day is not", async () => {
    const { concernsBoard } = await import("./DisplayBoardPage");
    expect(concernsBoard(change("2026-03-05", "2026-03-05"), "2026-03-04")).toBe(false);
    expect(concernsBoard(change("2026-03-04", "2026-03-05"), "2026-03-04")).toBe(true);
    expect(concernsBoard(change("2026-03-05", "2026-03-04"), "2026-03-04")).toBe(true);
    expect(concernsBoard({ ...change("2026-03-05", null), sessions: null }, "2026-03-04")).toBe(true);
    expect(concernsBoard({ entity: "holiday", ids: ["h"] }, "2026-03-04")).toBe(true);
    expect(concernsBoard(change("2026-03-05", null), null)).toBe(true);
    // A schedule generated or cleared names its dates (ADR 0033); without them, every board reads again.
    const schedule = (dates: string[]) => ({
      entity: "timetable_session" as const,
      action: "scheduled" as const,
      ids: ["g"],
      schedule: { dates, times: [], teacherIds: [], roomIds: [], rooms: [] },
    });
    expect(concernsBoard(schedule(["2026-03-02", "2026-03-04"]), "2026-03-04")).toBe(true);
    expect(concernsBoard(schedule(["2026-03-02", "2026-03-09"]), "2026-03-04")).toBe(false);
    expect(concernsBoard({ entity: "timetable_session", action: "scheduled", ids: ["g"] }, "2026-03-04")).toBe(true);
  });
});
