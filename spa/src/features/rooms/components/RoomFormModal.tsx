import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, TextInput } from "@mantine/core";
import { Controller, useForm, useWatch } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import { StaleChanges } from "../../../components/StaleChanges";
import { showValue, useRecordDialog } from "../../../components/useRecordDialog";
import { useCampusOptions } from "../../block-groups/api/blockGroups";
import { fetchRoom, ROOM_TYPES, roomSchema, roomValues, useSaveRoom, type Room, type RoomFormValues, type RoomInput } from "../api";

const FIELDS = ["code", "name", "campusId", "capacity", "type", "features", "isActive"];

/** Add Room / Edit Room (issue 19): code, name, campus, type, capacity (none for online), features. */
export function RoomFormModal({ opened, onClose, room }: { opened: boolean; onClose: () => void; room: Room | null }) {
  const save = useSaveRoom();
  const campuses = useCampusOptions();
  const { register, control, handleSubmit, reset, setError, formState, getValues } = useForm<RoomFormValues, unknown, RoomInput>({
    resolver: zodResolver(roomSchema),
    defaultValues: roomValues(room),
  });
  const dialog = useRecordDialog(opened, room, reset, roomValues, {
    getValues,
    fetchFresh: (r) => fetchRoom(r.id),
    labels: { code: "Code", name: "Name", campusId: "Campus", type: "Type", capacity: "Capacity", features: "Features", isActive: "Active" },
    display: {
      campusId: (v: unknown) => campuses.data?.find((c) => c.id === v)?.name ?? showValue(v),
      type: (v: unknown) => ROOM_TYPES[String(v)] ?? showValue(v),
    },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;
  const type = useWatch({ control, name: "type" });

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      await save.mutateAsync({ room: current, values });
      notifySuccess(current ? "Room updated successfully" : "Room created successfully");
      onClose();
    } catch (error) {
      const failure = classifyError(error);
      const title = current ? "Failed to update room" : "Failed to create room";
      if (failure.kind === "duplicate") {
        setError("code", { type: "server", message: failure.fields.code ?? "A room with this code already exists in your organization." });
        notifyError(title, "A room with this code already exists in your organization.");
      } else if (failure.kind === "validation") {
        setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
        notifyError(title, failure.messages[0] ?? "Please check your information.");
      } else if (failure.kind === "stale") {
        await dialog.onStale();
      } else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Room" : "Add Room"} size="lg">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Code" placeholder="e.g. CBD-3.12" withAsterisk maxLength={50} {...register("code")} error={formState.errors.code?.message} />
            <TextInput label="Name" placeholder="e.g. Cyber security lab" {...register("name")} error={formState.errors.name?.message} />
            <Controller
              control={control}
              name="campusId"
              render={({ field }) => (
                <Select label="Campus" placeholder="No campus" clearable data={(campuses.data ?? []).map((c) => ({ value: c.id, label: c.name }))} value={field.value} onChange={field.onChange} />
              )}
            />
            <Controller
              control={control}
              name="type"
              render={({ field }) => (
                <Select label="Type" data={Object.entries(ROOM_TYPES).map(([value, label]) => ({ value, label }))} value={field.value} onChange={(v) => field.onChange(v ?? "classroom")} allowDeselect={false} />
              )}
            />
            <Controller
              control={control}
              name="capacity"
              render={({ field }) => (
                <NumberInput
                  label="Capacity"
                  description={type === "online" ? "Online rooms have no capacity" : "Seats"}
                  disabled={type === "online"}
                  min={1}
                  max={1000}
                  allowDecimal={false}
                  clampBehavior="none"
                  value={field.value as number | string}
                  onChange={field.onChange}
                  error={formState.errors.capacity?.message}
                />
              )}
            />
            <TextInput label="Features" description="Separated by commas, e.g. Cisco rack, projector" {...register("features")} error={formState.errors.features?.message} />
          </SimpleGrid>
          <Controller control={control} name="isActive" render={({ field }) => <Switch label="Active" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />} />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Room" : "Create Room"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
