import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApiError } from "@/lib/api";
import { renderWithProviders } from "@/test/render";
import { BulkActionModal, type BulkActionText } from "./BulkActionModal";

const showToast = vi.hoisted(() => vi.fn());
vi.mock("@/lib/notify", async (importOriginal) => ({ ...(await importOriginal<typeof import("@/lib/notify")>()), showToast }));

type Result = { updated: number; warnings: { message: string }[] };

const TEXT: BulkActionText<Result> = {
  title: "Set Room",
  submit: "Set Room",
  missing: "Please select sessions and a room",
  refused: "Room refused: it is booked at one of these times",
  saved: (result, count) => `Room set for ${result.updated} of ${count} session(s)`,
  warnings: "Room set with warnings",
  failed: "Failed to set the room",
};

function stage(choice: string | null, write: (sessionIds: string[], choice: string) => Promise<Result>) {
  const onClose = vi.fn();
  const onDone = vi.fn();
  renderWithProviders(
    <BulkActionModal opened onClose={onClose} sessionIds={["s1", "s2"]} onDone={onDone} choice={choice} text={TEXT} write={write}>
      <span>the choice</span>
    </BulkActionModal>,
  );
  return { onClose, onDone };
}

describe("BulkActionModal (ADR 0021)", () => {
  beforeEach(() => showToast.mockClear());

  it("asks for a choice before writing", async () => {
    const write = vi.fn();
    stage(null, write);
    expect(await screen.findByText("2 session(s) selected.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Set Room" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please select sessions and a room");
    expect(write).not.toHaveBeenCalled();
  });

  it("writes the selection with the choice, toasts the result and its warnings, then is done", async () => {
    const write = vi.fn(async () => ({ updated: 2, warnings: [{ message: "Over capacity." }] }));
    const { onClose, onDone } = stage("r1", write);
    await userEvent.click(await screen.findByRole("button", { name: "Set Room" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(write).toHaveBeenCalledWith(["s1", "s2"], "r1");
    expect(onDone).toHaveBeenCalled();
    expect(showToast).toHaveBeenCalledWith("green", "Success", "Room set for 2 of 2 session(s)", expect.any(Number));
    expect(showToast).toHaveBeenCalledWith("yellow", "Room set with warnings", "Over capacity.", expect.any(Number));
  });

  it("shows a 409's clashes and the reason", async () => {
    const write = vi.fn(async () => {
      throw new ApiError(409, "Conflict", {
        message: "Booked",
        type: "conflict",
        conflicts: [{ type: "room", severity: "error", sessionIds: ["s1"], message: "B2.14 is booked by ICT-A." }],
      } as never);
    });
    const { onClose } = stage("r1", write);
    await userEvent.click(await screen.findByRole("button", { name: "Set Room" }));
    expect(await screen.findByText("Room refused: it is booked at one of these times")).toBeInTheDocument();
    expect(showToast).toHaveBeenCalledWith("red", "Failed to set the room", "B2.14 is booked by ICT-A.", expect.any(Number));
    expect(onClose).not.toHaveBeenCalled();
  });
});
