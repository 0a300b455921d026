import { ActionIcon, Group, Text } from "@mantine/core";
import { IconArrowsShuffle } from "@tabler/icons-react";
import { DataTable } from "@/components/DataTable";
import { formatDate, displayTime } from "@/components/Dates";
import { DetailSection } from "@/components/DetailPage";
import { AddButton, confirmAndMutate, DeleteAction, EditAction, ListStates, useEditDialog } from "@/components/ListPage";
import { openReplan } from "@/lib/replan";
import { useDeleteLeave, useLeave, type Leave } from "../api/leave";
import { LeaveFormModal } from "./LeaveFormModal";

/** The teacher page's Leave card (ADR 0014): periods by start date; add, edit, delete. */
export function LeaveCard({ teacherId }: { teacherId: string }) {
  const leave = useLeave(teacherId);
  const remove = useDeleteLeave(teacherId);
  const dialog = useEditDialog<Leave>();
  const confirmDelete = (l: Leave) =>
    confirmAndMutate(remove, l, {
      title: "Delete Leave",
      message: `Delete the leave from ${formatDate(l.startDate)} to ${formatDate(l.endDate)}? Sessions in it will no longer show the conflict.`,
      done: "Leave deleted",
      failed: "Failed to delete leave",
    });

  return (
    <DetailSection title="Leave" mb="md" data-testid="teacher-leave" actions={<AddButton onClick={() => dialog.open(null)}>Add Leave</AddButton>}>
      <ListStates rows={leave.data} loading={leave.isLoading && <Text c="dimmed">Loading leave…</Text>} empty={<Text c="dimmed">No leave recorded.</Text>}>
        {(periods) => (
          <DataTable
            striped
            minWidth={560}
            rows={periods}
            rowKey={(l) => l.id}
            columns={[
              { label: "From", cell: (l) => formatDate(l.startDate) },
              { label: "To", cell: (l) => formatDate(l.endDate) },
              { label: "Hours", cell: (l) => (l.startTime ? `${displayTime(l.startTime)}–${displayTime(l.endTime)}` : "All day") },
              { label: "Reason", cell: (l) => l.reason || "—" },
              {
                label: "Actions",
                hideLabel: true,
                cell: (l) => (
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <ActionIcon
                      variant="light"
                      color="yellow"
                      aria-label={`Re-plan around leave from ${formatDate(l.startDate)}`}
                      onClick={() => openReplan({ leaveId: l.id })}
                    >
                      <IconArrowsShuffle size={16} />
                    </ActionIcon>
                    <EditAction label={`Edit leave from ${formatDate(l.startDate)}`} onClick={() => dialog.open(l)} />
                    <DeleteAction label={`Delete leave from ${formatDate(l.startDate)}`} onClick={() => confirmDelete(l)} />
                  </Group>
                ),
              },
            ]}
          />
        )}
      </ListStates>
      <LeaveFormModal opened={dialog.opened} onClose={dialog.close} teacherId={teacherId} leave={dialog.editing} />
    </DetailSection>
  );
}
