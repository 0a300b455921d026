import { SimpleGrid, TextInput } from "@mantine/core";
import { DateRangeFields } from "@/components/FormFields";
import { defineRecordForm, RecordFormDialog, useRecordForm, type RecordDialogProps } from "@/components/RecordFormDialog";
import { warnOfImpact } from "@/lib/replan";
import { fetchLeave, leaveSchema, leaveValues, useSaveLeave, type Leave } from "../api/leave";

/** The leave dialog of a teacher (ADR 0014). */
const LEAVE_FORM = defineRecordForm({
  model: { schema: leaveSchema, toValues: leaveValues, fetch: (id, leave) => fetchLeave(leave.teacherId, id), toSave: (leave, values) => ({ leave, values }) },
  text: {
    create: { title: "Add Leave", submit: "Add Leave", saved: "Leave added", failed: "Failed to add leave" },
    edit: { title: "Edit Leave", submit: "Update Leave", saved: "Leave updated", failed: "Failed to update leave" },
  },
  onSaved: (saved: Leave) => {
    void warnOfImpact({ leaveId: saved.id }, "leave");
  },
  labels: { startDate: "Start Date", endDate: "End Date", startTime: "From (part day)", endTime: "Until (part day)", reason: "Reason" },
});

/** "Add Leave" / "Edit Leave" on the teacher page: dates, optional hours, reason. */
export function LeaveFormModal({ teacherId, leave, ...dialog }: RecordDialogProps & { teacherId: string; leave: Leave | null }) {
  const record = useRecordForm({ ...LEAVE_FORM, ...dialog, record: leave, save: useSaveLeave(teacherId) });
  const { register, formState } = record.form;
  return (
    <RecordFormDialog record={record}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DateRangeFields form={record.form} />
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
