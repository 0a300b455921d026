import { showLabel, showRecord } from "./useRecordDialog";

describe("how a field reads in a 412's compare", () => {
  it("a record's id reads as its code or name; an unknown one as stored", () => {
    const courses = [{ id: "c1", code: "ICT30120" }];
    expect(showRecord(courses, (c) => c.code)("c1")).toBe("ICT30120");
    expect(showRecord(courses, (c) => c.code)("c9")).toBe("c9");
    expect(showRecord(undefined, (c: { id: string; code: string }) => c.code)("")).toBe("(empty)");
  });

  it("a code reads as its label", () => {
    expect(showLabel({ full_time: "Full Time" })("full_time")).toBe("Full Time");
    expect(showLabel({ full_time: "Full Time" })(null)).toBe("(empty)");
  });
});
