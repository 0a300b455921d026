import { ActionIcon, Button, Card, Group, Table, Text, Title } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconArrowsShuffle, IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { formatDate, displayTime } from "../../../components/Dates";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import { openReplan } from "../../replan/openReplan";
import { useDeleteLeave, useLeave, type Leave } from "../api/leave";
import { LeaveFormModal } from "./LeaveFormModal";

/** The teacher page's Leave card (issue 17): periods by start date; add, edit, delete. */
export function LeaveCard({ teacherId }: { teacherId: string }) {
  const leave = useLeave(teacherId);
  const remove = useDeleteLeave(teacherId);
  const [editing, setEditing] = useState<Leave | null>(null);
  const [open, setOpen] = useState(false);
  const edit = (l: Leave | null) => {
    setEditing(l);
    setOpen(true);
  };
  const confirmDelete = (l: Leave) =>
    modals.openConfirmModal({
      title: "Delete Leave",
      children: (
        <Text size="sm">
          Delete the leave from {formatDate(l.startDate)} to {formatDate(l.endDate)}? Sessions in it will no longer show the conflict.
        </Text>
      ),
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(l, {
          onSuccess: () => notifySuccess("Leave deleted"),
          onError: (error) => {
            const failure = classifyError(error);
            notifyError("Failed to delete leave", ("message" in failure && failure.message) || "Please try again.");
          },
        }),
    });

  return (
    <Card withBorder mb="md" data-testid="teacher-leave">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Leave
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => edit(null)}>
          Add Leave
        </Button>
      </Group>
      {leave.isLoading ? (
        <Text c="dimmed">Loading leave…</Text>
      ) : !leave.data?.length ? (
        <Text c="dimmed">No leave recorded.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>Hours</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {leave.data.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>{formatDate(l.startDate)}</Table.Td>
                  <Table.Td>{formatDate(l.endDate)}</Table.Td>
                  <Table.Td>{l.startTime ? `${displayTime(l.startTime)}–${displayTime(l.endTime)}` : "All day"}</Table.Td>
                  <Table.Td>{l.reason || "—"}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="light"
                        color="yellow"
                        aria-label={`Re-plan around leave from ${formatDate(l.startDate)}`}
                        onClick={() => openReplan({ leaveId: l.id })}
                      >
                        <IconArrowsShuffle size={16} />
                      </ActionIcon>
                      <ActionIcon variant="light" aria-label={`Edit leave from ${formatDate(l.startDate)}`} onClick={() => edit(l)}>
                        <IconEdit size={16} />
                      </ActionIcon>
                      <ActionIcon variant="light" color="red" aria-label={`Delete leave from ${formatDate(l.startDate)}`} onClick={() => confirmDelete(l)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LeaveFormModal opened={open} onClose={() => setOpen(false)} teacherId={teacherId} leave={editing} />
    </Card>
  );
}
