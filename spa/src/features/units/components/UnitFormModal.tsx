import { FormNumber, FormSwitch } from "../../../components/FormFields";
import { deliveryFailure, RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { TextInput, Textarea } from "@mantine/core";
import { fetchUnit, UNIT_DEFAULTS, unitSchema, useSaveUnit, type Unit, type UnitFormValues } from "../api/units";

const FIELDS = ["code", "name", "description", "nominalHours", "isCore", "prerequisites"] as const;

function toValues(unit: Unit | null | undefined): UnitFormValues {
  if (!unit) return UNIT_DEFAULTS;
  return {
    code: unit.code,
    name: unit.name,
    description: unit.description ?? "",
    nominalHours: unit.nominalHours,
    isCore: unit.isCore,
    prerequisites: unit.prerequisites ?? "",
  };
}

const TEXT: DialogText = { create: ["Create Unit of Competency", "Create Unit"], edit: ["Edit Unit of Competency", "Update Unit"] };

/** Create / edit a unit of competency (delivery.md §2 Units, §8 Units). */
export function UnitFormModal({ opened, onClose, unit }: { opened: boolean; onClose: () => void; unit?: Unit | null }) {
  const save = useSaveUnit();
  const record = useRecordForm({
    opened,
    record: unit,
    schema: unitSchema,
    toValues,
    fields: FIELDS,
    stale: {
      fetchFresh: (u) => fetchUnit(u.id),
      labels: { code: "Code", name: "Name", nominalHours: "Nominal Hours", isCore: "Core Unit", description: "Description", prerequisites: "Prerequisites" },
    },
    save: (current, values) => save.mutateAsync({ unit: current, values }),
    onClose,
    savedText: ["Unit created successfully", "Unit updated successfully"],
    onFailed: deliveryFailure(
      "Unit Creation Error",
      "Unable to save the unit. Please try again.",
      "A unit with this code already exists in your organization.",
    ),
  });
  const { register, control, formState } = record.form;
  const current = record.current;

  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!current} text={TEXT} size="lg" record={record} saving={save.isPending}>
      <TextInput label="Code" placeholder="e.g. ICTICT214" withAsterisk {...register("code")} error={formState.errors.code?.message} />
      <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
      <FormNumber control={control} name="nominalHours" label="Nominal Hours" withAsterisk min={1} step={1} error={formState.errors.nominalHours?.message} />
      <FormSwitch control={control} name="isCore" label="Core Unit" />
      <Textarea label="Description" autosize minRows={2} {...register("description")} />
      <Textarea label="Prerequisites" autosize minRows={2} {...register("prerequisites")} />
    </RecordFormDialog>
  );
}
