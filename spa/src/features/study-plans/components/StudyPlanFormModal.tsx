import { FormNumber, FormSwitch } from "../../../components/FormFields";
import { deliveryFailure, RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { TextInput, Textarea } from "@mantine/core";
import { fetchStudyPlan, STUDY_PLAN_DEFAULTS, studyPlanSchema, useSaveStudyPlan, type StudyPlan, type StudyPlanFormValues } from "../api/studyPlans";

const FIELDS = ["name", "description", "totalNominalHours", "isActive"] as const;
const toValues = (plan?: StudyPlan | null): StudyPlanFormValues =>
  plan ? { name: plan.name, description: plan.description ?? "", totalNominalHours: plan.totalNominalHours, isActive: plan.isActive } : STUDY_PLAN_DEFAULTS;

const TEXT: DialogText = { create: ["Create Study Plan", "Create Study Plan"], edit: ["Edit Study Plan", "Update Study Plan"] };

/** Create / edit a study plan (delivery.md §2 Study plans, §5, §8). */
export function StudyPlanFormModal({ opened, onClose, plan }: { opened: boolean; onClose: () => void; plan?: StudyPlan | null }) {
  const save = useSaveStudyPlan();
  const record = useRecordForm({
    opened,
    record: plan,
    schema: studyPlanSchema,
    toValues,
    fields: FIELDS,
    stale: {
      fetchFresh: (p) => fetchStudyPlan(p.id),
      labels: { name: "Name", description: "Description", totalNominalHours: "Total Nominal Hours", isActive: "Active" },
    },
    save: (current, values) => save.mutateAsync({ plan: current, values }),
    onClose,
    savedText: ["Study plan created successfully", "Study plan updated successfully"],
    onFailed: deliveryFailure("Study Plan Error", "Unable to save the study plan. Please try again."),
  });
  const { register, control, formState } = record.form;
  const current = record.current;

  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!current} text={TEXT} size="lg" record={record} saving={save.isPending}>
      <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
      <Textarea label="Description" autosize minRows={2} {...register("description")} />
      <FormNumber
        control={control}
        name="totalNominalHours"
        label="Total Nominal Hours"
        withAsterisk
        min={0}
        error={formState.errors.totalNominalHours?.message}
      />
      <FormSwitch control={control} name="isActive" label="Active" />
    </RecordFormDialog>
  );
}
