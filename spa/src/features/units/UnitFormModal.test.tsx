import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "../../test/render";
import { UnitFormModal } from "./components/UnitFormModal";

// Mantine's autosizing Textarea listens to document.fonts, which jsdom lacks.
if (!("fonts" in document)) Object.defineProperty(document, "fonts", { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

describe("UnitFormModal", () => {
  it("refuses nominal hours below 1 with the documented message", async () => {
    renderWithProviders(<UnitFormModal opened onClose={() => {}} />);
    await userEvent.type(await screen.findByLabelText(/^Code/), "BSBWHS311");
    await userEvent.type(screen.getByLabelText(/^Name/), "Assist with maintaining workplace safety");
    const hours = screen.getByLabelText(/^Nominal Hours/);
    await userEvent.clear(hours);
    await userEvent.type(hours, "0");
    await userEvent.click(screen.getByRole("button", { name: "Create Unit" }));
    expect(await screen.findByText("Nominal hours must be at least 1")).toBeInTheDocument();
  });
});
