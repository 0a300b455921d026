import { ModalsProvider } from "@mantine/modals";
import { Notifications, notifications } from "@mantine/notifications";
import { act, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { ApiError } from "@/lib/api";
import { renderWithProviders } from "@/test/render";
import { confirmDestructive, DeleteAction, ListStates, outcomeToasts, useEditDialog } from "./ListPage";

afterEach(() => act(() => notifications.clean()));

describe("ListStates", () => {
  const show = (props: { rows: string[] | undefined; loading?: boolean; failed?: boolean }) =>
    renderWithProviders(
      <ListStates rows={props.rows} loading={props.loading && "Loading..."} failed={props.failed && "Failed to load."} empty="Nothing yet.">
        {(rows) => rows.join(", ")}
      </ListStates>,
    );

  it("shows loading over anything else", () => {
    show({ rows: ["a"], loading: true, failed: true });
    expect(screen.getByText("Loading...")).toBeInTheDocument();
  });
  it("shows the failure over rows", () => {
    show({ rows: ["a"], failed: true });
    expect(screen.getByText("Failed to load.")).toBeInTheDocument();
  });
  it("shows empty without rows", () => {
    show({ rows: undefined });
    expect(screen.getByText("Nothing yet.")).toBeInTheDocument();
  });
  it("draws the rows", () => {
    show({ rows: ["a", "b"] });
    expect(screen.getByText("a, b")).toBeInTheDocument();
  });
});

test("useEditDialog opens on a record or empty (create) and closes", () => {
  const { result } = renderHook(() => useEditDialog<{ id: string }>());
  expect(result.current.opened).toBe(false);
  act(() => result.current.open({ id: "1" }));
  expect(result.current).toMatchObject({ opened: true, editing: { id: "1" } });
  act(() => result.current.close());
  expect(result.current.opened).toBe(false);
  act(() => result.current.open(null));
  expect(result.current).toMatchObject({ opened: true, editing: null });
});

test("confirmDestructive asks first and runs the action only on confirm", async () => {
  const onConfirm = vi.fn();
  renderWithProviders(
    <ModalsProvider>
      <DeleteAction
        label="Delete room R1"
        onClick={() => confirmDestructive({ title: "Delete Room", message: "Delete the room R1?", confirm: "Delete", onConfirm })}
      />
    </ModalsProvider>,
  );
  await userEvent.click(screen.getByRole("button", { name: "Delete room R1" }));
  expect(await screen.findByText("Delete the room R1?")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(onConfirm).not.toHaveBeenCalled();
  await userEvent.click(screen.getByRole("button", { name: "Delete room R1" }));
  await userEvent.click(await screen.findByRole("button", { name: "Delete" }));
  expect(onConfirm).toHaveBeenCalledTimes(1);
});

describe("outcomeToasts", () => {
  it("tells of success, and of a failure with the given message", async () => {
    renderWithProviders(<Notifications />);
    const toasts = outcomeToasts("Course deleted successfully", ["Error", "Failed to delete course."]);
    act(() => toasts.onSuccess());
    expect(await screen.findByText("Course deleted successfully")).toBeInTheDocument();
    act(() => toasts.onError(new Error("boom")));
    expect(await screen.findByText("Failed to delete course.")).toBeInTheDocument();
  });

  it("with a title only, gives the server's reason, or asks to try again", async () => {
    renderWithProviders(<Notifications />);
    const toasts = outcomeToasts("Room deleted successfully", "Failed to delete room");
    act(() => toasts.onError(new ApiError(409, "{}", { message: "The room is in use." })));
    expect(await screen.findByText("The room is in use.")).toBeInTheDocument();
    act(() => toasts.onError(new ApiError(500, "", null)));
    expect(await screen.findByText("Server error occurred. Please try again.")).toBeInTheDocument();
    act(() => toasts.onError(new ApiError(400, "", null)));
    expect(await screen.findByText("Please try again.")).toBeInTheDocument();
  });
});
