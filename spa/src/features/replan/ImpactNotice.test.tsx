import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "@/test/render";
import { setImpactNotice } from "@/lib/replan";
import { ImpactNotice } from "./ImpactNotice";

describe("ImpactNotice", () => {
  it("shows what a saved change hits until dismissed", async () => {
    renderWithProviders(<ImpactNotice />);
    expect(screen.queryByTestId("impact-notice")).not.toBeInTheDocument();
    act(() => setImpactNotice({ text: "3 sessions of 2 block groups fall on this holiday.", change: { holidayId: "h1" } }));
    expect(await screen.findByText("3 sessions of 2 block groups fall on this holiday.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Review re-plan" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByTestId("impact-notice")).not.toBeInTheDocument();
  });
});
