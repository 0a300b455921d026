import { daysAvailable, gridOf, patternOf, patternSummary, type Pattern } from "./availability";

describe("availability grid", () => {
  it("turns windows and preferences into half-hour cells and back", () => {
    const windows = [
      { weekday: 0, start: "08:00", end: "17:00" },
      { weekday: 2, start: "17:30", end: "21:30" },
    ];
    const preferences = [{ weekday: 0, start: "12:00", end: "17:00", level: "discouraged" }];
    const grid = gridOf(windows, preferences);
    expect(grid["0:16"]).toBe("on");
    expect(grid["0:24"]).toBe("discouraged");
    expect(grid["1:20"]).toBeUndefined();
    expect(patternOf(grid)).toEqual({ windows, preferences });
  });

  it("drops prohibited time from the available cells", () => {
    const grid = gridOf([{ weekday: 4, start: "08:00", end: "17:00" }], [{ weekday: 4, start: "12:00", end: "17:00", level: "prohibited" }]);
    expect(patternOf(grid).windows).toEqual([{ weekday: 4, start: "08:00", end: "12:00" }]);
  });

  it("names a painted pattern's days and finds the weeks a date range empties", () => {
    const p = {
      custom: true,
      windows: [
        { weekday: 0, start: "08:00", end: "17:00" },
        { weekday: 2, start: "08:00", end: "17:00" },
      ],
      preferences: [],
      variants: [{ name: "Break", startDate: "2027-07-05", endDate: "2027-07-11", windows: [] }],
      maxHoursPerDay: 7,
      maxHoursPerWeek: null,
      maxDaysPerWeek: null,
      campusIds: [],
      preferredCampusId: null,
      preferredCampusLevel: "preferred",
    } as Pattern;
    expect(patternSummary(p)).toBe("Mon, Wed · max 7 h/day");
    expect(daysAvailable(p, "2027-06-28")).toEqual([0, 2]);
    expect(daysAvailable(p, "2027-07-05")).toEqual([]);
  });
});
