import { ScrollArea, Select } from "@mantine/core";
import { useState } from "react";
import { BulkActionModal, useBulkFeedback } from "../../../components/BulkActionModal";
import { notifySuccess, notifyWarning } from "../../../components/Notify";
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
  const feedback = useBulkFeedback(opened);
  const submit = () => {
    feedback.clear();
    if (!sessionIds.length || !teacherId) {
      feedback.setError("Please select sessions and a teacher");
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
        onError: (e) => feedback.fail(e, "Failed to allocate teacher to sessions"),
      },
    );
  };
  // The teacher choice, its error and the Allocate button stay in view; the ranking scrolls between them
  // (issue 18).
  return (
    <BulkActionModal
      opened={opened}
      onClose={onClose}
      title="Allocate Teacher"
      count={sessionIds.length}
      feedback={feedback}
      conflictTitle="Allocation refused: it clashes with another session"
      submitLabel="Allocate"
      pending={allocate.isPending}
      onSubmit={submit}
      after={
        sessionIds.length === 1 ? (
          <ScrollArea.Autosize mah="45vh" type="auto" offsetScrollbars data-testid="recommendations-scroll">
            <TeacherRecommendations sessionId={sessionIds[0]} selectedTeacherId={teacherId} onSelect={setTeacherId} />
          </ScrollArea.Autosize>
        ) : null
      }
    >
      <Select
        label="Teacher"
        placeholder="Select a teacher"
        searchable
        data={(teachers.data ?? []).filter((t) => t.isActive !== false).map((t) => ({ value: t.id, label: `${t.firstName} ${t.lastName}` }))}
        value={teacherId}
        onChange={setTeacherId}
      />
    </BulkActionModal>
  );
}
