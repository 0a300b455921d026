import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "@/test/render";
import { planUnitSchema } from "./api/planUnits";
import { CloneStudyPlanModal } from "./components/CloneStudyPlanModal";
import type { StudyPlan } from "./api/studyPlans";

describe("study plan forms", () => {
  it("turns empty hours into 0 and refuses negative ones with the documented message", () => {
    const base = { unitId: "u", yearLevel: 1, isCluster: false, clusterGroup: "", insertPosition: "end" };
    const ok = planUnitSchema.parse({ ...base, faceToFaceHours: "", facilitatedELearningHours: "2.25" });
    expect(ok.faceToFaceHours).toBe(0);
    expect(ok.facilitatedELearningHours).toBe(2.25);
    const bad = planUnitSchema.safeParse({ ...base, faceToFaceHours: -1, cumulativeAssessmentHours: -0.25 });
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toContain("Face to face hours must be non-negative");
    expect(messages).toContain("Cumulative assessment hours must be non-negative");
  });

  it("prefills the clone name with (Copy) and disables it when blank", async () => {
    const plan = { id: "p", name: "Cert IV plan" } as StudyPlan;
    renderWithProviders(<CloneStudyPlanModal plan={plan} onClose={() => {}} />);
    const name = await screen.findByLabelText("Name");
    expect(name).toHaveValue("Cert IV plan (Copy)");
    await userEvent.clear(name);
    await userEvent.type(name, "   ");
    expect(screen.getByRole("button", { name: "Clone Study Plan" })).toBeDisabled();
  });
});
