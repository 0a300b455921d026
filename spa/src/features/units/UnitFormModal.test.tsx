import { screen } from "@testing-library/react";
import { fillAndSubmit } from "@/components/RecordFormDialog.testing";
import { renderWithProviders } from "@/test/render";
import { UnitFormModal } from "./components/UnitFormModal";

describe("UnitFormModal", () => {
  it("refuses nominal hours below 1 with the documented message", async () => {
    renderWithProviders(<UnitFormModal opened onClose={() => {}} />);
    await fillAndSubmit({ Code: "BSBWHS311", Name: "Assist with maintaining workplace safety", "Nominal Hours": "0" }, "Create Unit");
    expect(await screen.findByText("Nominal hours must be at least 1")).toBeInTheDocument();
  });
});
