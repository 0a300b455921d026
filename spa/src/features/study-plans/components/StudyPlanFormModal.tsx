import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, NumberInput, Stack, Switch, TextInput, Textarea } from "@mantine/core";
import { StaleChanges } from "../../../components/StaleChanges";
import { useRecordDialog } from "../../../components/useRecordDialog";
import { Controller, useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import {
  fetchStudyPlan,
  STUDY_PLAN_DEFAULTS,
  studyPlanSchema,
  useSaveStudyPlan,
  type StudyPlan,
  type StudyPlanFormValues,
  type StudyPlanInput,
} from "../api/studyPlans";

const FIELDS = ["name", "description", "totalNominalHours", "isActive"] as const;
const toValues = (plan?: StudyPlan | null): StudyPlanFormValues =>
  plan ? { name: plan.name, description: plan.description ?? "", totalNominalHours: plan.totalNominalHours, isActive: plan.isActive } : STUDY_PLAN_DEFAULTS;

/** Create / edit a study plan (delivery.md §2 Study plans, §5, §8). */
export function StudyPlanFormModal({ opened, onClose, plan }: { opened: boolean; onClose: () => void; plan?: StudyPlan | null }) {
  const save = useSaveStudyPlan();
  const { register, handleSubmit, control, reset, setError, formState, getValues } = useForm<StudyPlanFormValues, unknown, StudyPlanInput>({
    resolver: zodResolver(studyPlanSchema),
    defaultValues: toValues(plan),
  });
  const dialog = useRecordDialog(opened, plan, reset, toValues, {
    getValues,
    fetchFresh: (p) => fetchStudyPlan(p.id),
    labels: { name: "Name", description: "Description", totalNominalHours: "Total Nominal Hours", isActive: "Active" },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      await save.mutateAsync({ plan: current, values });
      notifySuccess(current ? "Study plan updated successfully" : "Study plan created successfully");
      onClose();
    } catch (error) {
      const failure = classifyError(error);
      const title = "Study Plan Error";
      if (failure.kind === "unauthorized") notifyError(title, "You are logged out. Logging in again...");
      else if (failure.kind === "validation") {
        notifyError(title, "Please check your form inputs - some fields have validation errors.");
        setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
      } else if (failure.kind === "stale") {
        await dialog.onStale();
      } else if (failure.kind === "server") notifyError(title, "Server error occurred. Please try again.");
      else notifyError(title, ("message" in failure && failure.message) || "Unable to save the study plan. Please try again.");
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Study Plan" : "Create Study Plan"} size="lg">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
          <Textarea label="Description" autosize minRows={2} {...register("description")} />
          <Controller
            control={control}
            name="totalNominalHours"
            render={({ field }) => (
              <NumberInput
                clampBehavior="none"
                label="Total Nominal Hours"
                withAsterisk
                min={0}
                value={field.value as number | string}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={formState.errors.totalNominalHours?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="isActive"
            render={({ field }) => <Switch label="Active" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
          />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Study Plan" : "Create Study Plan"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
