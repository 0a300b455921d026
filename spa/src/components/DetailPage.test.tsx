import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApiError } from "@/lib/api";
import { renderWithProviders } from "@/test/render";
import { DetailSection, detailPageFallback } from "./DetailPage";

const back = { to: "/courses", label: "Back to Courses" };
const query = (over: Partial<Parameters<typeof detailPageFallback>[0]>) => ({
  isLoading: false,
  isError: false,
  error: null,
  data: undefined,
  refetch: vi.fn(),
  ...over,
});

describe("detailPageFallback", () => {
  it("is nothing once the record is there", () => {
    expect(detailPageFallback(query({ data: { id: "1" } }), "Failed to load courses. Please try again.", back)).toBeNull();
  });
  it("shows the loader while loading", () => {
    renderWithProviders(detailPageFallback(query({ isLoading: true }), "Failed", back)!);
    expect(screen.getByText("Loading...")).toBeInTheDocument();
  });
  it("shows the message with Retry on a failure", async () => {
    const q = query({ isError: true, error: new Error("500") });
    renderWithProviders(detailPageFallback(q, "Failed to load courses. Please try again.", back)!);
    expect(screen.getByText("Failed to load courses. Please try again.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(q.refetch).toHaveBeenCalled();
  });
  it("says not found with the way back on a 404", () => {
    const q = query({ isError: true, error: new ApiError(404, "{}", { message: "Course not found" }) });
    renderWithProviders(detailPageFallback(q, "Failed", back)!);
    expect(screen.getByTestId("record-not-found")).toHaveTextContent("Course not found");
    expect(screen.getByRole("link", { name: "Back to Courses" })).toHaveAttribute("href", "/courses");
  });
});

test("DetailSection: a titled card with its actions", () => {
  renderWithProviders(
    <DetailSection title="Leave" data-testid="teacher-leave" actions={<button type="button">Add Leave</button>}>
      No leave recorded.
    </DetailSection>,
  );
  expect(screen.getByRole("heading", { level: 2, name: "Leave" })).toBeInTheDocument();
  expect(screen.getByTestId("teacher-leave")).toHaveTextContent("No leave recorded.");
  expect(screen.getByRole("button", { name: "Add Leave" })).toBeInTheDocument();
});
