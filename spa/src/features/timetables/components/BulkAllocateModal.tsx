import { ConflictAlert } from "../../../components/ConflictAlert";
import { Button, Group, Modal, ScrollArea, Select, Stack, Text } from "@mantine/core";
import { Notice } from "../../../components/Notice";
import { useEffect, useState } from "react";
import { classifyError, notifyError, notifySuccess, notifyWarning, type ConflictItem } from "../../../components/Notify";
import { useBulkAllocate, useTeacherChoices } from "../api/timetables";
import { TeacherRecommendations } from "../auto-allocation";

/** Allocate Teacher to the selected sessions (delivery.md §5 "Bulk allocate"; 409 names the clash). */
export function BulkAllocateModal({
  opened,
  onClose,
  sessionIds,
  onAllocated,
}: {
  opened: boolean;
  onClose: () => void;
  sessionIds: string[];
  onAllocated: () => void;
}) {
  const teachers = useTeacherChoices();
  const allocate = useBulkAllocate();
  const [teacherId, setTeacherId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<ConflictItem[]>([]);
  useEffect(() => {
    if (opened) {
      setError(null);
      setConflicts([]);
    }
  }, [opened]);
  const submit = () => {
    setError(null);
    setConflicts([]);
    if (!sessionIds.length || !teacherId) {
      setError("Please select sessions and a teacher");
      return;
    }
    allocate.mutate(
      { sessionIds, teacherId },
      {
        onSuccess: (result) => {
          notifySuccess(`Teacher allocated to ${result?.updated ?? sessionIds.length} session(s)`);
          if (result?.warnings?.length) notifyWarning("Allocated with warnings", result.warnings.map((w) => w.message).join(" "));
          onAllocated();
          onClose();
        },
        onError: (e) => {
          const failure = classifyError(e);
          if (failure.kind === "conflict") {
            setConflicts(failure.conflicts);
            notifyError("Failed to allocate teacher to sessions", failure.message);
          } else notifyError("Failed to allocate teacher to sessions", ("message" in failure && failure.message) || "Please try again.");
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Allocate Teacher" size="lg">
      {/* The teacher choice, its error and the Allocate button stay in view; the ranking scrolls between
          them (issue 18). */}
      <Stack>
        <Text size="sm">{sessionIds.length} session(s) selected.</Text>
        <Select
          label="Teacher"
          placeholder="Select a teacher"
          searchable
          data={(teachers.data ?? []).filter((t) => t.isActive !== false).map((t) => ({ value: t.id, label: `${t.firstName} ${t.lastName}` }))}
          value={teacherId}
          onChange={setTeacherId}
        />
        {error ? (
          <Notice color="red" role="alert">
            {error}
          </Notice>
        ) : null}
        <ConflictAlert title="Allocation refused: it clashes with another session" conflicts={conflicts} />
        {sessionIds.length === 1 ? (
          <ScrollArea.Autosize mah="45vh" type="auto" offsetScrollbars data-testid="recommendations-scroll">
            <TeacherRecommendations sessionId={sessionIds[0]} selectedTeacherId={teacherId} onSelect={setTeacherId} />
          </ScrollArea.Autosize>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={allocate.isPending}>
            Allocate
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
