import { setDisplayFormats } from "@/components/Dates";
import type { Proposal, ReplanChange, ReplanOption } from "./api";
import { affectedWeeks, localDates, optionFigures, summarySentence } from "./summary";

const change = (code: string, from: string, to: string): ReplanChange => ({
  sessionId: `${code}-${from}`,
  blockGroupId: code,
  blockGroupCode: code,
  unitCode: "U1",
  reason: "Falls on Snap",
  actualHours: 3,
  from: { actualDate: from, startTime: "09:00:00", endTime: "12:00:00", teacherId: null, teacherName: "Unassigned" },
  to: { actualDate: to, startTime: "09:00:00", endTime: "12:00:00", teacherId: null, teacherName: "Unassigned" },
});

const option = (key: ReplanOption["key"], label: string, changes: ReplanChange[], extra: Partial<ReplanOption["figures"]> = {}): ReplanOption => ({
  key,
  label,
  changes,
  unresolved: [],
  figures: {
    sessionsHit: 2,
    sessionsMoved: changes.length,
    hoursMovedToOtherWeek: 0,
    teachersChanged: 0,
    unresolved: 0,
    endDatesExtended: [],
    ...extra,
  },
});

const makeUp = option("makeUp", "Make-up", [change("ICT-A", "2026-12-01", "2026-12-03"), change("ICT-B", "2026-12-01", "2026-12-04")]);
const shift = option(
  "shift",
  "Shift",
  [change("ICT-A", "2026-12-01", "2026-12-08"), change("ICT-A", "2026-12-08", "2026-12-15"), change("ICT-B", "2026-12-01", "2026-12-02")],
  {
    hoursMovedToOtherWeek: 6,
    endDatesExtended: [{ blockGroupId: "ICT-A", code: "ICT-A", from: "2027-06-24", to: "2027-07-13" }],
  },
);
const proposal = {
  id: "p",
  version: "v",
  kind: "closure",
  description: "Holiday Snap",
  start: "2026-12-01",
  end: "2026-12-01",
  preselected: "makeUp",
  options: [makeUp, shift],
  changes: makeUp.changes,
  unresolved: [],
  figures: makeUp.figures,
} as Proposal;

describe("the re-plan review's words", () => {
  beforeEach(() => setDisplayFormats("DD/MM/YYYY", "24h"));

  it("says what is hit and what each option does, in one paragraph", () => {
    expect(summarySentence(proposal)).toBe(
      "2 sessions of 2 block groups fall on Tue 01/12/2026. Make-up: 2 sessions move, end dates unchanged. " +
        "Shift: 3 sessions move, 6 hours to another week, ICT-A ends 13/07/2027 instead of 24/06/2027.",
    );
  });

  it("uses the user's date format, in reasons too", () => {
    setDisplayFormats("MM/DD/YYYY", "12h");
    expect(localDates("No free slot before the next unit starts on 2026-02-11")).toBe("No free slot before the next unit starts on 02/11/2026");
    expect(summarySentence(proposal)).toContain("fall on Tue 12/01/2026");
  });

  it("says leave in its own words", () => {
    const cover = option("reallocate", "Another teacher", [change("ICT-A", "2026-12-01", "2026-12-01")], {
      teachersChanged: 1,
      sessionsMoved: 0,
      sessionsHit: 1,
    });
    const leave = {
      ...proposal,
      kind: "leave",
      description: "Kim T's leave",
      end: "2026-12-03",
      preselected: "reallocate",
      options: [cover],
      figures: cover.figures,
    } as Proposal;
    expect(summarySentence(leave)).toBe(
      "1 session of 1 block group falls in Kim T's leave (Tue 01/12/2026 to Thu 03/12/2026). Another teacher: 1 session gets another teacher.",
    );
  });

  it("gives each option its figures with the right nouns", () => {
    expect(optionFigures(shift)).toBe(
      "3 sessions moved · 6 hours to another week · ICT-A ends 13/07/2027 instead of 24/06/2027 · 0 sessions with another teacher",
    );
    expect(optionFigures(option("makeUp", "Make-up", [change("X", "2026-12-01", "2026-12-02")], { teachersChanged: 1 }))).toBe(
      "1 session moved · 0 hours to another week · end dates unchanged · 1 session with another teacher",
    );
  });

  it("lays out the weeks a move leaves or enters", () => {
    const { weeks, more } = affectedWeeks(shift.changes, 2);
    expect(weeks.map((w) => w.start)).toEqual(["2026-11-30", "2026-12-07"]);
    expect(more).toBe(1);
    const tuesday = weeks[0].days.find((d) => d.date === "2026-12-01");
    expect(tuesday?.out.map((c) => c.blockGroupCode)).toEqual(["ICT-A", "ICT-B"]);
    expect(weeks[0].days.find((d) => d.date === "2026-12-02")?.in.map((c) => c.blockGroupCode)).toEqual(["ICT-B"]);
    expect(weeks[0].days).toHaveLength(5); // no weekend day used
  });

  it("shows the sessions that stay around the moves, not the moved ones twice", () => {
    const around = [
      { id: "ICT-A-2026-12-01", blockGroupCode: "ICT-A", actualDate: "2026-12-01", startTime: "09:00:00" }, // moved
      { id: "keep-1", blockGroupCode: "ICT-A", actualDate: "2026-12-02", startTime: "13:00:00" },
      { id: "keep-2", blockGroupCode: "ICT-B", actualDate: "2026-12-02", startTime: "09:00:00" },
      { id: "far", blockGroupCode: "ICT-A", actualDate: "2027-03-01", startTime: "09:00:00" },
    ];
    const { weeks } = affectedWeeks(makeUp.changes, 4, around);
    expect(weeks).toHaveLength(1);
    const days = Object.fromEntries(weeks[0].days.map((d) => [d.date, d.stay.map((x) => `${x.code} ${x.startTime}`)]));
    expect(days["2026-12-01"]).toEqual([]);
    expect(days["2026-12-02"]).toEqual(["ICT-B 09:00:00", "ICT-A 13:00:00"]);
  });
});
