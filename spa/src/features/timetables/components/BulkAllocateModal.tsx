import { ScrollArea, Select } from "@mantine/core";
import { useState } from "react";
import { BulkActionModal, type BulkActionProps, type BulkActionText } from "@/components/BulkActionModal";
import { useBulkAllocate, useTeacherChoices, type BulkAllocateResult } from "../api/timetables";
import { TeacherRecommendations } from "../auto-allocation";

const ALLOCATE_TEXT: BulkActionText<BulkAllocateResult> = {
  title: "Allocate Teacher",
  submit: "Allocate",
  missing: "Please select sessions and a teacher",
  refused: "Allocation refused: it clashes with another session",
  saved: (result, count) => `Teacher allocated to ${result?.updated ?? count} session(s)`,
  warnings: "Allocated with warnings",
  failed: "Failed to allocate teacher to sessions",
};

/** Allocate Teacher to the selected sessions (docs/behaviour/teachers.md §1 "Bulk allocate"; 409 names the clash). */
export function BulkAllocateModal({ onAllocated, ...props }: Omit<BulkActionProps, "onDone"> & { onAllocated: () => void }) {
  const { sessionIds } = props;
  const teachers = useTeacherChoices();
  const allocate = useBulkAllocate();
  const [teacherId, setTeacherId] = useState<string | null>(null);
  // The teacher choice, its error and the Allocate button stay in view; the ranking scrolls between them
  // (ADR 0018).
  return (
    <BulkActionModal
      {...props}
      onDone={onAllocated}
      choice={teacherId}
      text={ALLOCATE_TEXT}
      write={(sessionIds, teacherId) => allocate.mutateAsync({ sessionIds, teacherId })}
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
