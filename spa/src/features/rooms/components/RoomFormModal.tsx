import { FormNumber, FormSelect, FormSwitch } from "../../../components/FormFields";
import { Select, SimpleGrid, TextInput } from "@mantine/core";
import { Controller, useWatch } from "react-hook-form";
import { RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { showValue } from "../../../components/useRecordDialog";
import { useCampusOptions } from "../../block-groups/api/blockGroups";
import { fetchRoom, ROOM_TYPES, roomSchema, roomValues, useSaveRoom, type Room } from "../api";

const TEXT: DialogText = { create: ["Add Room", "Create Room"], edit: ["Edit Room", "Update Room"] };

/** Add Room / Edit Room (issue 19): code, name, campus, type, capacity (none for online), features. */
export function RoomFormModal({ opened, onClose, room }: { opened: boolean; onClose: () => void; room: Room | null }) {
  const save = useSaveRoom();
  const campuses = useCampusOptions();
  const record = useRecordForm({
    opened,
    record: room,
    schema: roomSchema,
    toValues: roomValues,
    fields: ["code", "name", "campusId", "capacity", "type", "features", "isActive"],
    stale: {
      fetchFresh: (r) => fetchRoom(r.id),
      labels: { code: "Code", name: "Name", campusId: "Campus", type: "Type", capacity: "Capacity", features: "Features", isActive: "Active" },
      display: {
        campusId: (v: unknown) => campuses.data?.find((c) => c.id === v)?.name ?? showValue(v),
        type: (v: unknown) => ROOM_TYPES[String(v)] ?? showValue(v),
      },
    },
    save: (current, values) => save.mutateAsync({ room: current, values }),
    onClose,
    savedText: ["Room created successfully", "Room updated successfully"],
    failedTitle: ["Failed to create room", "Failed to update room"],
  });
  const { register, control, formState } = record.form;
  const editing = !!record.current;
  const type = useWatch({ control, name: "type" });

  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!editing} text={TEXT} record={record} saving={save.isPending}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Code" placeholder="e.g. CBD-3.12" withAsterisk maxLength={50} {...register("code")} error={formState.errors.code?.message} />
        <TextInput label="Name" placeholder="e.g. Cyber security lab" {...register("name")} error={formState.errors.name?.message} />
        <Controller
          control={control}
          name="campusId"
          render={({ field }) => (
            <Select
              label="Campus"
              placeholder="No campus"
              clearable
              data={(campuses.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <FormSelect
          control={control}
          name="type"
          label="Type"
          data={Object.entries(ROOM_TYPES).map(([value, label]) => ({ value, label }))}
          fallback="classroom"
        />
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
