import { FormNumber, FormSwitch } from "@/components/FormFields";
import { defineRecordForm, deliveryFailure, RecordFormModal, type RecordDialogProps } from "@/components/RecordFormDialog";
import { TextInput, Textarea } from "@mantine/core";
import { fetchStudyPlan, STUDY_PLAN_DEFAULTS, studyPlanSchema, useSaveStudyPlan, type StudyPlan, type StudyPlanFormValues } from "../api/studyPlans";

const toValues = (plan?: StudyPlan | null): StudyPlanFormValues =>
  plan ? { name: plan.name, description: plan.description ?? "", totalNominalHours: plan.totalNominalHours, isActive: plan.isActive } : STUDY_PLAN_DEFAULTS;

/** The study plan dialog (docs/behaviour/study-plans.md; docs/behaviour/hours.md §2; docs/behaviour/errors.md §9). */
const STUDY_PLAN_FORM = defineRecordForm({
  model: { schema: studyPlanSchema, toValues, fetch: fetchStudyPlan, toSave: (plan, values) => ({ plan, values }) },
  text: {
    create: { title: "Create Study Plan", submit: "Create Study Plan", saved: "Study plan created successfully" },
    edit: { title: "Edit Study Plan", submit: "Update Study Plan", saved: "Study plan updated successfully" },
  },
  onFailed: deliveryFailure("Study Plan Error", "Unable to save the study plan. Please try again."),
  labels: { name: "Name", description: "Description", totalNominalHours: "Total Nominal Hours", isActive: "Active" },
});

/** Create / edit a study plan. */
export function StudyPlanFormModal({ plan, ...dialog }: RecordDialogProps & { plan?: StudyPlan | null }) {
  return (
    <RecordFormModal spec={STUDY_PLAN_FORM} {...dialog} record={plan} save={useSaveStudyPlan()}>
      {({ register, control, formState }) => (
        <>
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
        </>
      )}
    </RecordFormModal>
  );
}
