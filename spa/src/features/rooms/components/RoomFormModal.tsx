import { choices, FormNumber, FormPicker, FormSelect, FormSwitch } from "@/components/FormFields";
import { SimpleGrid, TextInput } from "@mantine/core";
import { useWatch } from "react-hook-form";
import { defineRecordForm, RecordFormDialog, useRecordForm, type RecordDialogProps } from "@/components/RecordFormDialog";
import { showLabel, showRecord } from "@/components/useRecordDialog";
import { useCampusOptions } from "@/lib/entities/campuses";
import { fetchRoom, ROOM_TYPES, roomSchema, roomValues, useSaveRoom, type Room } from "../api";

/** The room dialog (ADR 0019). */
const ROOM_FORM = defineRecordForm({
  model: { schema: roomSchema, toValues: roomValues, fetch: fetchRoom, toSave: (room, values) => ({ room, values }) },
  text: {
    create: { title: "Add Room", submit: "Create Room", saved: "Room created successfully", failed: "Failed to create room" },
    edit: { title: "Edit Room", submit: "Update Room", saved: "Room updated successfully", failed: "Failed to update room" },
  },
  labels: { code: "Code", name: "Name", campusId: "Campus", type: "Type", capacity: "Capacity", features: "Features", isActive: "Active" },
});

/** Add Room / Edit Room: code, name, campus, type, capacity (none for online), features. */
export function RoomFormModal({ room, ...dialog }: RecordDialogProps & { room: Room | null }) {
  const campuses = useCampusOptions();
  const display = { campusId: showRecord(campuses.data, (c) => c.name), type: showLabel(ROOM_TYPES) };
  const record = useRecordForm({ ...ROOM_FORM, ...dialog, record: room, save: useSaveRoom(), display });
  const { register, control, formState } = record.form;
  const type = useWatch({ control, name: "type" });

  return (
    <RecordFormDialog record={record}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Code" placeholder="e.g. CBD-3.12" withAsterisk maxLength={50} {...register("code")} error={formState.errors.code?.message} />
        <TextInput label="Name" placeholder="e.g. Cyber security lab" {...register("name")} error={formState.errors.name?.message} />
        <FormPicker
          control={control}
          name="campusId"
          none={null}
          label="Campus"
          placeholder="No campus"
          clearable
          data={(campuses.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
        <FormSelect control={control} name="type" label="Type" data={choices(ROOM_TYPES)} fallback="classroom" />
        <FormNumber
          control={control}
          name="capacity"
          label="Capacity"
          description={type === "online" ? "Online rooms have no capacity" : "Seats"}
          disabled={type === "online"}
          min={1}
          max={1000}
          allowDecimal={false}
          error={formState.errors.capacity?.message}
        />
        <TextInput
          label="Features"
          description="Separated by commas, e.g. Cisco rack, projector"
          {...register("features")}
          error={formState.errors.features?.message}
        />
      </SimpleGrid>
      <FormSwitch control={control} name="isActive" label="Active" />
    </RecordFormDialog>
  );
}
