import { FormNumber, FormSwitch } from "@/components/FormFields";
import { defineRecordForm, deliveryFailure, RecordFormModal, type RecordDialogProps } from "@/components/RecordFormDialog";
import { TextInput, Textarea } from "@mantine/core";
import { fetchUnit, UNIT_DEFAULTS, unitSchema, useSaveUnit, type Unit, type UnitFormValues } from "../api/units";

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

/** The unit of competency dialog (docs/behaviour/units-and-courses.md §2; docs/behaviour/errors.md §9). */
const UNIT_FORM = defineRecordForm({
  model: { schema: unitSchema, toValues, fetch: fetchUnit, toSave: (unit, values) => ({ unit, values }) },
  text: {
    create: { title: "Create Unit of Competency", submit: "Create Unit", saved: "Unit created successfully" },
    edit: { title: "Edit Unit of Competency", submit: "Update Unit", saved: "Unit updated successfully" },
  },
  onFailed: deliveryFailure("Unit Creation Error", "Unable to save the unit. Please try again.", "A unit with this code already exists in your organization."),
  labels: { code: "Code", name: "Name", nominalHours: "Nominal Hours", isCore: "Core Unit", description: "Description", prerequisites: "Prerequisites" },
});

/** Create / edit a unit of competency. */
export function UnitFormModal({ unit, ...dialog }: RecordDialogProps & { unit?: Unit | null }) {
  return (
    <RecordFormModal spec={UNIT_FORM} {...dialog} record={unit} save={useSaveUnit()}>
      {({ register, control, formState }) => (
        <>
          <TextInput label="Code" placeholder="e.g. ICTICT214" withAsterisk {...register("code")} error={formState.errors.code?.message} />
          <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
          <FormNumber
            control={control}
            name="nominalHours"
            label="Nominal Hours"
            withAsterisk
            min={1}
            step={1}
            error={formState.errors.nominalHours?.message}
          />
          <FormSwitch control={control} name="isCore" label="Core Unit" />
          <Textarea label="Description" autosize minRows={2} {...register("description")} />
          <Textarea label="Prerequisites" autosize minRows={2} {...register("prerequisites")} />
        </>
      )}
    </RecordFormModal>
  );
}
