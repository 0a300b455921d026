import { SimpleGrid, TextInput } from "@mantine/core";
import { RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { warnOfImpact } from "../../replan/warnOfImpact";
import { fetchLeave, leaveSchema, leaveValues, useSaveLeave, type Leave } from "../api/leave";

const TEXT: DialogText = { create: ["Add Leave", "Add Leave"], edit: ["Edit Leave", "Update Leave"] };

/** "Add Leave" / "Edit Leave" on the teacher page (issue 17): dates, optional hours, reason. */
export function LeaveFormModal({ opened, onClose, teacherId, leave }: { opened: boolean; onClose: () => void; teacherId: string; leave: Leave | null }) {
  const save = useSaveLeave(teacherId);
  const record = useRecordForm({
    opened,
    record: leave,
    schema: leaveSchema,
    toValues: leaveValues,
    fields: ["startDate", "endDate", "startTime", "endTime", "reason"],
    stale: {
      fetchFresh: (l) => fetchLeave(teacherId, l.id),
      labels: { startDate: "Start Date", endDate: "End Date", startTime: "From (part day)", endTime: "Until (part day)", reason: "Reason" },
    },
    save: (current, values) => save.mutateAsync({ leave: current, values }),
    onClose,
    savedText: ["Leave added", "Leave updated"],
    onSaved: (saved) => {
      void warnOfImpact({ leaveId: saved.id }, "leave");
    },
    failedTitle: ["Failed to add leave", "Failed to update leave"],
  });
  const { register, formState } = record.form;
  const editing = !!record.current;
  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!editing} text={TEXT} record={record} saving={save.isPending}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput type="date" label="Start Date" withAsterisk {...register("startDate")} error={formState.errors.startDate?.message} />
        <TextInput type="date" label="End Date" withAsterisk {...register("endDate")} error={formState.errors.endDate?.message} />
        <TextInput
          type="time"
          label="From (part day)"
          description="Leave empty for whole days"
          {...register("startTime")}
          error={formState.errors.startTime?.message}
        />
        <TextInput type="time" label="Until (part day)" {...register("endTime")} error={formState.errors.endTime?.message} />
      </SimpleGrid>
      <TextInput label="Reason" placeholder="e.g. Annual leave, Conference" {...register("reason")} error={formState.errors.reason?.message} />
    </RecordFormDialog>
  );
}
