import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import { StaleChanges } from "../../../components/StaleChanges";
import { useRecordDialog } from "../../../components/useRecordDialog";
import { warnOfImpact } from "../../replan/warnOfImpact";
import { fetchLeave, leaveSchema, leaveValues, useSaveLeave, type Leave, type LeaveFormValues, type LeaveInput } from "../api/leave";

const FIELDS = ["startDate", "endDate", "startTime", "endTime", "reason"];

/** "Add Leave" / "Edit Leave" on the teacher page (issue 17): dates, optional hours, reason. */
export function LeaveFormModal({ opened, onClose, teacherId, leave }: { opened: boolean; onClose: () => void; teacherId: string; leave: Leave | null }) {
  const save = useSaveLeave(teacherId);
  const { register, handleSubmit, reset, setError, formState, getValues } = useForm<LeaveFormValues, unknown, LeaveInput>({
    resolver: zodResolver(leaveSchema),
    defaultValues: leaveValues(leave),
  });
  const dialog = useRecordDialog(opened, leave, reset, leaveValues, {
    getValues,
    fetchFresh: (l) => fetchLeave(teacherId, l.id),
    labels: { startDate: "Start Date", endDate: "End Date", startTime: "From (part day)", endTime: "Until (part day)", reason: "Reason" },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      const saved = await save.mutateAsync({ leave: current, values });
      notifySuccess(current ? "Leave updated" : "Leave added");
      onClose();
      void warnOfImpact({ leaveId: saved.id }, "leave");
    } catch (error) {
      const failure = classifyError(error);
      const title = current ? "Failed to update leave" : "Failed to add leave";
      if (failure.kind === "validation") {
        setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
        notifyError(title, failure.messages[0] ?? "Please check your information.");
      } else if (failure.kind === "stale") {
        await dialog.onStale();
      } else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Leave" : "Add Leave"} size="lg">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput type="date" label="Start Date" withAsterisk {...register("startDate")} error={formState.errors.startDate?.message} />
            <TextInput type="date" label="End Date" withAsterisk {...register("endDate")} error={formState.errors.endDate?.message} />
            <TextInput type="time" label="From (part day)" description="Leave empty for whole days" {...register("startTime")} error={formState.errors.startTime?.message} />
            <TextInput type="time" label="Until (part day)" {...register("endTime")} error={formState.errors.endTime?.message} />
          </SimpleGrid>
          <TextInput label="Reason" placeholder="e.g. Annual leave, Conference" {...register("reason")} error={formState.errors.reason?.message} />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Leave" : "Add Leave"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
