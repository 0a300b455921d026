import { Button, Group, Modal, Select, Stack } from "@mantine/core";
import { useState } from "react";
import { notifyError, notifySuccess } from "@/components/Notify";
import { useAssignPlan, useStudyPlanOptions } from "../api/scheduling";

/** Assign Study Plan dialog: active plans not yet assigned (docs/behaviour/hours.md §2 "Assign study plan"). */
export function AssignPlanModal({ groupId, opened, onClose, assignedIds }: { groupId: string; opened: boolean; onClose: () => void; assignedIds: string[] }) {
  const plans = useStudyPlanOptions();
  const assign = useAssignPlan(groupId);
  const [value, setValue] = useState<string | null>(null);
  const data = (plans.data ?? []).filter((p) => p.isActive !== false && !assignedIds.includes(p.id)).map((p) => ({ value: p.id, label: p.name }));
  const submit = () => {
    if (!value) return;
    assign.mutate(value, {
      onSuccess: () => {
        notifySuccess("Study plan assigned successfully");
        setValue(null);
        onClose();
      },
      onError: () => notifyError("Error", "Failed to assign study plan"),
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Assign Study Plan">
      <Stack>
        <Select
          label="Study Plan"
          placeholder="Select a study plan"
          data={data}
          value={value}
          onChange={setValue}
          searchable
          nothingFoundMessage="No study plans available"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!value} loading={assign.isPending}>
            Assign
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
