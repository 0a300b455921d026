import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "../../test/render";
import { CourseFormModal } from "./components/CourseFormModal";

// Mantine's autosizing Textarea listens to document.fonts, which jsdom lacks.
if (!("fonts" in document)) Object.defineProperty(document, "fonts", { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

describe("CourseFormModal", () => {
  it("shows the create title and requires code and name", async () => {
    renderWithProviders(<CourseFormModal opened onClose={() => {}} />);
    expect(await screen.findByText("Create New Course")).toBeInTheDocument();
    expect(screen.getByPlaceholderText("e.g. ICT30120")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Create Course" }));
    expect(await screen.findByText("Code is required")).toBeInTheDocument();
    expect(screen.getByText("Name is required")).toBeInTheDocument();
  });
});
