import { screen } from "@testing-library/react";
import { fillAndSubmit } from "@/components/RecordFormDialog.testing";
import { renderWithProviders } from "@/test/render";
import { blockGroupSchema, BLOCK_GROUP_DEFAULTS } from "./api/blockGroups";
import { defaultTemplates, END_AFTER_START, scheduleSchema, templateHours, TIME_MESSAGE } from "./api/scheduling";
import { BlockGroupFormModal } from "./components/BlockGroupFormModal";

describe("block group form", () => {
  it("shows the cohort size and start date messages", async () => {
    renderWithProviders(<BlockGroupFormModal opened onClose={() => {}} />);
    await fillAndSubmit({ Code: "BG-1", Name: "Cohort", "Cohort Size": "0" }, "Create Block Group");
    expect(await screen.findByText("Cohort size must be at least 1")).toBeInTheDocument();
    expect(screen.getByText("Start date is required")).toBeInTheDocument();
  });

  it("has the documented defaults and treats an empty end date as absent", () => {
    expect(BLOCK_GROUP_DEFAULTS).toMatchObject({ sessionDuration: 3, sessionsPerDay: 2, deliveryMode: "on_campus", studyMode: "full_time", status: "active" });
    const parsed = blockGroupSchema.parse({ ...BLOCK_GROUP_DEFAULTS, code: "A", name: "B", startDate: "2027-02-01", endDate: "" });
    expect(parsed.endDate).toBeNull();
    const bad = blockGroupSchema.safeParse({ ...BLOCK_GROUP_DEFAULTS, code: "A", name: "B", startDate: "2027-02-01", sessionDuration: 0, sessionsPerDay: 0 });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toContain("Session duration must be at least 1 hour");
    expect(messages).toContain("Sessions per day must be at least 1");
  });

  it("validates session templates typed as HH:MM, sends HH:MM:SS and rounds their hours to half hours", () => {
    const none = scheduleSchema.safeParse({ sessionTemplates: [], startDate: "2027-02-01", room: "", notes: "", startNextUnitInNewWeek: false });
    expect(none.error!.issues[0].message).toBe("At least one session template is required");
    const bad = scheduleSchema.safeParse({
      sessionTemplates: [{ startTime: "9am", endTime: "25:00", duration: 0 }],
      startDate: "2027-02-01",
      room: "",
      notes: "",
      startNextUnitInNewWeek: false,
    });
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages.filter((m) => m === TIME_MESSAGE)).toHaveLength(2);
    expect(messages).toContain("Duration must be positive");
    // Typed HH:MM (or H:MM, or with seconds): seconds only on the wire (ADR 0018).
    const ok = scheduleSchema.parse({
      sessionTemplates: [
        { startTime: "9:00", endTime: "12:30", duration: 3.5 },
        { startTime: "13:00:00", endTime: "16:00", duration: 3 },
      ],
      startDate: "2027-02-01",
      room: "",
      notes: "",
      startNextUnitInNewWeek: false,
    });
    expect(ok.sessionTemplates.map((t) => [t.startTime, t.endTime])).toEqual([
      ["09:00:00", "12:30:00"],
      ["13:00:00", "16:00:00"],
    ]);
    expect(templateHours("09:00", "11:40")).toBe(2.5);
    expect(templateHours("09:00:00", "11:40:00")).toBe(2.5);
    expect(templateHours("13:00", "12:00")).toBeNull();
  });

  it("starts the schedule dialog with one template per session of the group's day", () => {
    expect(defaultTemplates(1)).toEqual([{ startTime: "09:00", endTime: "12:00", duration: 3 }]);
    expect(defaultTemplates(2).map((t) => `${t.startTime}-${t.endTime}`)).toEqual(["09:00-12:00", "13:00-16:00"]);
    expect(defaultTemplates(3).map((t) => `${t.startTime}-${t.endTime}`)).toEqual(["09:00-12:00", "13:00-16:00", "17:00-20:00"]);
    expect(defaultTemplates(undefined)).toHaveLength(1);
  });

  it("refuses overlapping, zero-length and backwards slots with the server's messages", () => {
    const schedule = (sessionTemplates: { startTime: string; endTime: string; duration: number }[]) =>
      scheduleSchema.safeParse({ sessionTemplates, startDate: "2027-02-01", room: "", notes: "", startNextUnitInNewWeek: false });
    const overlap = schedule([
      { startTime: "09:00", endTime: "12:00", duration: 3 },
      { startTime: "11:00", endTime: "14:00", duration: 3 },
    ]);
    expect(overlap.error!.issues).toEqual([
      expect.objectContaining({ path: ["sessionTemplates"], message: "Template 1 (09:00-12:00) and template 2 (11:00-14:00) overlap" }),
    ]);
    const inside = schedule([
      { startTime: "13:00", endTime: "16:00", duration: 3 },
      { startTime: "09:00", endTime: "17:00", duration: 8 },
    ]);
    expect(inside.error!.issues[0].message).toBe("Template 1 (13:00-16:00) and template 2 (09:00-17:00) overlap");
    const zero = schedule([{ startTime: "09:00", endTime: "09:00", duration: 1 }]);
    expect(zero.error!.issues).toEqual([expect.objectContaining({ path: ["sessionTemplates", 0, "endTime"], message: END_AFTER_START })]);
    expect(schedule([{ startTime: "12:00", endTime: "09:00", duration: 1 }]).success).toBe(false);
    expect(
      schedule([
        { startTime: "09:00", endTime: "12:00", duration: 3 },
        { startTime: "12:00", endTime: "15:00", duration: 3 },
      ]).success,
    ).toBe(true);
  });
});
