import { TextInput } from "@mantine/core";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { z } from "zod";
import { ApiError } from "@/lib/api";
import { renderWithProviders } from "@/test/render";
import { defineRecordForm, RecordFormModal } from "./RecordFormDialog";

const showToast = vi.hoisted(() => vi.fn());
vi.mock("@/lib/notify", async (importOriginal) => ({ ...(await importOriginal<typeof import("@/lib/notify")>()), showToast }));

interface Room {
  id: string;
  code: string;
  updatedAt: string;
}

const ROOM_FORM = defineRecordForm({
  model: {
    schema: z.object({ code: z.string().min(1, "Code is required") }),
    toValues: (room: Room | null | undefined) => ({ code: room?.code ?? "" }),
    fetch: async (id: string) => ({ id, code: "THEIRS", updatedAt: "2" }),
    toSave: (room, values) => ({ room, values }),
  },
  text: {
    create: { title: "Add Room", submit: "Create Room", saved: "Room created", failed: "Failed to create room" },
    edit: { title: "Edit Room", submit: "Update Room", saved: "Room updated", failed: "Failed to update room" },
  },
  labels: { code: "Code" },
});

function stage(room: Room | null, mutateAsync: (variables: { room: Room | null; values: { code: string } }) => Promise<Room>) {
  const onClose = vi.fn();
  renderWithProviders(
    <RecordFormModal spec={ROOM_FORM} opened onClose={onClose} record={room} save={{ mutateAsync, isPending: false }}>
      {({ register, formState }) => <TextInput label="Code" {...register("code")} error={formState.errors.code?.message} />}
    </RecordFormModal>,
  );
  return { onClose };
}

describe("RecordFormModal (one pattern for the record dialogs)", () => {
  beforeEach(() => showToast.mockClear());

  it("creates with the create texts: saves the input, toasts, closes", async () => {
    const save = vi.fn(async ({ values }: { values: { code: string } }) => ({ id: "r1", code: values.code, updatedAt: "1" }));
    const { onClose } = stage(null, save);
    expect(await screen.findByText("Add Room")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Code"), "B2.14");
    await userEvent.click(screen.getByRole("button", { name: "Create Room" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(save).toHaveBeenCalledWith({ room: null, values: { code: "B2.14" } });
    expect(showToast).toHaveBeenCalledWith("green", "Success", "Room created", expect.any(Number));
  });

  it("edits with the edit texts; a 400 puts its field errors on the fields (once: not again in the list), with the failed title", async () => {
    const save = vi.fn(async () => {
      throw new ApiError(400, "Bad Request", { message: "Invalid", errors: [{ path: ["code"], message: "Code is taken" }] } as never);
    });
    const { onClose } = stage({ id: "r1", code: "B2.14", updatedAt: "1" }, save);
    expect(await screen.findByText("Edit Room")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Update Room" }));
    expect(await screen.findByText("Code is taken")).toBeInTheDocument();
    expect(screen.getAllByText("Code is taken")).toHaveLength(1);
    expect(screen.queryByTestId("form-errors")).toBeNull();
    expect(showToast).toHaveBeenCalledWith("red", "Failed to update room", "Code is taken", expect.any(Number));
    expect(onClose).not.toHaveBeenCalled();
  });

  it("a 412 shows the compare with the fresh record and keeps the typing", async () => {
    const save = vi.fn(async () => {
      throw new ApiError(412, "Precondition Failed", { message: "Changed by someone else" } as never);
    });
    stage({ id: "r1", code: "B2.14", updatedAt: "1" }, save);
    const code = await screen.findByLabelText("Code");
    await userEvent.clear(code);
    await userEvent.type(code, "MINE");
    await userEvent.click(screen.getByRole("button", { name: "Update Room" }));
    expect(await screen.findByTestId("stale-fields")).toHaveTextContent("CodeTHEIRSMINE");
    expect(code).toHaveValue("MINE");
  });
});
