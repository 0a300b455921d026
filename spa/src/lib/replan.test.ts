import { type ChangeQuery, impactSentence, type Impact, openReplan, provideReplanReview } from "./replan";

const impact = (sessionCount: number, blockGroupCount: number) => ({ sessionCount, blockGroupCount }) as Impact;

describe("impactSentence", () => {
  it("counts sessions and block groups in words", () => {
    expect(impactSentence(impact(3, 2), "holiday")).toBe("3 sessions of 2 block groups fall on this holiday");
    expect(impactSentence(impact(1, 1), "leave")).toBe("1 session of 1 block group falls in this leave");
    expect(impactSentence(impact(4, 1), "term break")).toBe("4 sessions of 1 block group fall on this term break");
  });
  it("says nothing when nothing is hit", () => {
    expect(impactSentence(impact(0, 0), "holiday")).toBeNull();
  });
});

describe("openReplan", () => {
  it("is loud until the app shell provides the review, then opens the provided review with the change", () => {
    const change: ChangeQuery = { holidayId: "h1" };
    expect(() => openReplan(change)).toThrow("No re-plan review was provided");
    const opened: ChangeQuery[] = [];
    provideReplanReview((c) => opened.push(c));
    openReplan(change);
    expect(opened).toEqual([change]);
  });
});
