import { Notifications, notifications } from "@mantine/notifications";
import { act, screen, waitFor } from "@testing-library/react";
import { afterEach } from "vitest";
import { renderWithProviders } from "@/test/render";
import { showToast } from "./notify";

afterEach(() => act(() => notifications.clean()));

describe("toasts (feedback that tells the truth)", () => {
  it("a success replaces the error of the failed try at once", async () => {
    renderWithProviders(<Notifications limit={1} />);
    act(() => showToast("red", "Failed to create holiday", "Name is required", 8000));
    expect(await screen.findByText("Failed to create holiday")).toBeInTheDocument();
    act(() => showToast("green", "Success", "Holiday created successfully"));
    expect(await screen.findByText("Holiday created successfully")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("Failed to create holiday")).not.toBeInTheDocument());
  });

  it("a newer error replaces the older one; information waits behind the outcome", async () => {
    renderWithProviders(<Notifications limit={1} />);
    act(() => showToast("red", "Failed to update block group", "first"));
    act(() => showToast("red", "Failed to update block group", "second"));
    expect(await screen.findByText("second")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("first")).not.toBeInTheDocument());
    act(() => showToast("yellow", "Sessions affected", "3 sessions of 2 block groups fall on this holiday"));
    expect(screen.getByText("second")).toBeInTheDocument(); // queued, not replacing
    expect(screen.queryByText("Sessions affected")).not.toBeInTheDocument();
  });
});
