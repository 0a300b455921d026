import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "../../test/render";
import { blockGroupSchema, BLOCK_GROUP_DEFAULTS } from "./api/blockGroups";
import { scheduleSchema, templateHours } from "./api/scheduling";
import { BlockGroupFormModal } from "./components/BlockGroupFormModal";

// Mantine's autosizing Textarea listens to document.fonts, which jsdom lacks.
if (!("fonts" in document)) Object.defineProperty(document, "fonts", { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

describe("block group form", () => {
  it("shows the cohort size and start date messages", async () => {
    renderWithProviders(<BlockGroupFormModal opened onClose={() => {}} />);
    await userEvent.type(await screen.findByLabelText(/^Code/), "BG-1");
    await userEvent.type(screen.getByLabelText(/^Name/), "Cohort");
    const cohort = screen.getByLabelText(/^Cohort Size/);
    await userEvent.clear(cohort);
    await userEvent.type(cohort, "0");
    await userEvent.click(screen.getByRole("button", { name: "Create Block Group" }));
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

  it("validates session templates and rounds their hours to half hours", () => {
    const none = scheduleSchema.safeParse({ sessionTemplates: [], startDate: "2027-02-01", room: "", notes: "", startNextUnitInNewWeek: false });
    expect(none.error!.issues[0].message).toBe("At least one session template is required");
    const bad = scheduleSchema.safeParse({ sessionTemplates: [{ startTime: "9:00", endTime: "12:00:00", duration: 0 }], startDate: "2027-02-01", room: "", notes: "", startNextUnitInNewWeek: false });
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toContain("Invalid time format, use HH:MM:SS");
    expect(messages).toContain("Duration must be positive");
    expect(templateHours("09:00:00", "11:40:00")).toBe(2.5);
    expect(templateHours("13:00:00", "12:00:00")).toBeNull();
  });
});
