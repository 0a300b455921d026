import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "@/test/render";
import { LeaveFormModal } from "./components/LeaveFormModal";

describe("LeaveFormModal", () => {
  it("requires both dates, the end on or after the start, and both times or neither", async () => {
    renderWithProviders(<LeaveFormModal opened onClose={() => {}} teacherId="t1" leave={null} />);
    expect(await screen.findByRole("heading", { name: "Add Leave" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Add Leave" }));
    expect(await screen.findByText("Start date is required")).toBeInTheDocument();
    expect(screen.getByText("End date is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Start Date/), "2027-03-10");
    await userEvent.type(screen.getByLabelText(/^End Date/), "2027-03-09");
    await userEvent.type(screen.getByLabelText(/^From/), "13:00");
    await userEvent.click(screen.getByRole("button", { name: "Add Leave" }));
    expect(await screen.findByText("End date must be on or after start date")).toBeInTheDocument();
    expect(screen.getByText("End time is required with a start time")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Until/), "12:00");
    await userEvent.click(screen.getByRole("button", { name: "Add Leave" }));
    expect(await screen.findByText("End time must be after start time")).toBeInTheDocument();
  });
});
