import { TextInput } from "@mantine/core";
import { FormDialog, preventingDefault } from "@/components/FormDialog";
import { useEffect, useState } from "react";
import { notifyError, notifySuccess } from "@/components/Notify";
import { useCloneStudyPlan, type StudyPlan } from "../api/studyPlans";

/** Clone Study Plan dialog (docs/behaviour/study-plans.md): name prefilled with "<name> (Copy)". */
export function CloneStudyPlanModal({ plan, onClose }: { plan: StudyPlan | null; onClose: () => void }) {
  const [name, setName] = useState("");
  const clone = useCloneStudyPlan();
  useEffect(() => {
    if (plan) setName(`${plan.name} (Copy)`);
  }, [plan]);
  const blank = name.trim() === "";
  const submit = () => {
    if (!plan || blank) return;
    clone.mutate(
      { id: plan.id, name: name.trim() },
      {
        onSuccess: () => {
          notifySuccess("Study plan cloned successfully");
          onClose();
        },
        onError: () => notifyError("Study Plan Error", "Failed to clone study plan."),
      },
    );
  };
  return (
    <FormDialog
      opened={!!plan}
      onClose={onClose}
      title="Clone Study Plan"
      onSubmit={preventingDefault(submit)}
      submitLabel={clone.isPending ? "Cloning..." : "Clone Study Plan"}
      disabled={blank || clone.isPending}
    >
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
    </FormDialog>
  );
}
