import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, NumberInput, Stack, Switch, TextInput, Textarea } from "@mantine/core";
import { StaleChanges } from "../../../components/StaleChanges";
import { useRecordDialog } from "../../../components/useRecordDialog";
import { Controller, useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import { fetchUnit, UNIT_DEFAULTS, unitSchema, useSaveUnit, type Unit, type UnitFormValues, type UnitInput } from "../api/units";

const FIELDS = ["code", "name", "description", "nominalHours", "isCore", "prerequisites"] as const;

function toValues(unit: Unit | null | undefined): UnitFormValues {
  if (!unit) return UNIT_DEFAULTS;
  return { code: unit.code, name: unit.name, description: unit.description ?? "", nominalHours: unit.nominalHours, isCore: unit.isCore, prerequisites: unit.prerequisites ?? "" };
}

/** Create / edit a unit of competency (delivery.md §2 Units, §8 Units). */
export function UnitFormModal({ opened, onClose, unit }: { opened: boolean; onClose: () => void; unit?: Unit | null }) {
  const save = useSaveUnit();
  const { register, handleSubmit, control, reset, setError, formState, getValues } = useForm<UnitFormValues, unknown, UnitInput>({
    resolver: zodResolver(unitSchema),
    defaultValues: toValues(unit),
  });

  const dialog = useRecordDialog(opened, unit, reset, toValues, {
    getValues,
    fetchFresh: (u) => fetchUnit(u.id),
    labels: { code: "Code", name: "Name", nominalHours: "Nominal Hours", isCore: "Core Unit", description: "Description", prerequisites: "Prerequisites" },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      await save.mutateAsync({ unit: current, values });
      notifySuccess(current ? "Unit updated successfully" : "Unit created successfully");
      onClose();
    } catch (error) {
      const failure = classifyError(error);
      const title = "Unit Creation Error";
      switch (failure.kind) {
        case "unauthorized":
          notifyError(title, "You are logged out. Logging in again...");
          break;
        case "validation":
          notifyError(title, "Please check your form inputs - some fields have validation errors.");
          setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
          break;
        case "duplicate":
          notifyError(title, "A unit with this code already exists in your organization.");
          setError("code", { type: "server", message: "A unit with this code already exists in your organization." });
          break;
        case "server":
          notifyError(title, "Server error occurred. Please try again.");
          break;
        case "stale":
        await dialog.onStale();
          break;
        default:
          notifyError(title, ("message" in failure && failure.message) || "Unable to save the unit. Please try again.");
      }
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Unit of Competency" : "Create Unit of Competency"} size="lg">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <TextInput label="Code" placeholder="e.g. ICTICT214" withAsterisk {...register("code")} error={formState.errors.code?.message} />
          <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
          <Controller
            control={control}
            name="nominalHours"
            render={({ field }) => (
              <NumberInput
                clampBehavior="none"
                label="Nominal Hours"
                withAsterisk
                min={1}
                step={1}
                value={field.value as number | string}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={formState.errors.nominalHours?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="isCore"
            render={({ field }) => <Switch label="Core Unit" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
          />
          <Textarea label="Description" autosize minRows={2} {...register("description")} />
          <Textarea label="Prerequisites" autosize minRows={2} {...register("prerequisites")} />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Unit" : "Create Unit"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
