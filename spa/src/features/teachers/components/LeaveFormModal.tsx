import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { Notice } from "../../../components/Notice";
import { classifyError, notifyError, notifySuccess, STALE_MESSAGE, STALE_TITLE } from "../../../components/Notify";
import { useRecordDialog } from "../../../components/useRecordDialog";
import { warnOfImpact } from "../../replan/warnOfImpact";
import { fetchLeave, leaveSchema, leaveValues, useSaveLeave, type Leave, type LeaveFormValues, type LeaveInput } from "../api/leave";

const FIELDS = ["startDate", "endDate", "startTime", "endTime", "reason"];

/** "Add Leave" / "Edit Leave" on the teacher page (issue 17): dates, optional hours, reason. */
export function LeaveFormModal({ opened, onClose, teacherId, leave }: { opened: boolean; onClose: () => void; teacherId: string; leave: Leave | null }) {
  const save = useSaveLeave(teacherId);
  const { register, handleSubmit, reset, setError, formState } = useForm<LeaveFormValues, unknown, LeaveInput>({
    resolver: zodResolver(leaveSchema),
    defaultValues: leaveValues(leave),
  });
  const { current, serverMessages, setServerMessages, stale, setStale, clearServerState, load } = useRecordDialog(opened, leave, reset, leaveValues);

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
        if (current) load(await fetchLeave(teacherId, current.id));
        setStale(true);
        notifyError(STALE_TITLE, STALE_MESSAGE);
      } else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Leave" : "Add Leave"} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {stale ? (
            <Notice color="yellow" title={STALE_TITLE} role="alert">
              {STALE_MESSAGE}
            </Notice>
          ) : null}
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
