import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "@/test/render";
import { TeacherFormModal } from "./components/TeacherFormModal";

describe("TeacherFormModal", () => {
  it("requires the employee ID and keeps max weekly hours within 1 to 40", async () => {
    renderWithProviders(<TeacherFormModal opened onClose={() => {}} teacher={null} />);
    const max = await screen.findByLabelText(/^Max Weekly Hours/);
    expect(max).toHaveValue("21");
    await userEvent.clear(max);
    await userEvent.type(max, "41");
    await userEvent.click(screen.getByRole("button", { name: "Add Teacher" }));
    expect(await screen.findByText("Employee ID is required")).toBeInTheDocument();
    expect(screen.getByText("Max weekly hours cannot exceed 40")).toBeInTheDocument();
  });
});
