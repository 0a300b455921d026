import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "@/test/render";
import { HolidayFormModal } from "./components/HolidayFormModal";

describe("HolidayFormModal", () => {
  it("requires both dates and an end on or after the start", async () => {
    renderWithProviders(<HolidayFormModal opened onClose={() => {}} holiday={null} />);
    expect(await screen.findByText("Add New Holiday")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Name/), "Open day");
    await userEvent.click(screen.getByRole("button", { name: "Create Holiday" }));
    expect(await screen.findByText("Start date is required")).toBeInTheDocument();
    expect(screen.getByText("End date is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Start Date/), "2027-03-10");
    await userEvent.type(screen.getByLabelText(/^End Date/), "2027-03-09");
    await userEvent.click(screen.getByRole("button", { name: "Create Holiday" }));
    expect(await screen.findByText("End date must be on or after start date")).toBeInTheDocument();
  });
});
