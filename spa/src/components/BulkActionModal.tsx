import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { type ReactNode, useEffect, useState } from "react";
import { ConflictAlert } from "./ConflictAlert";
import { Notice } from "./Notice";
import { classifyError, notifyError, type ConflictItem } from "./Notify";

/**
 * The feedback of a bulk action on selected sessions (Allocate Teacher, Set Room): the message of a
 * missing choice and the clashes of a 409, cleared when the dialog opens and before each try; `fail`
 * shows a refused write (the clashes in the dialog, the reason in a toast).
 */
export function useBulkFeedback(opened: boolean) {
  const [error, setError] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<ConflictItem[]>([]);
  useEffect(() => {
    if (opened) {
      setError(null);
      setConflicts([]);
    }
  }, [opened]);
  const clear = () => {
    setError(null);
    setConflicts([]);
  };
  const fail = (e: unknown, title: string) => {
    const failure = classifyError(e);
    if (failure.kind === "conflict") setConflicts(failure.conflicts);
    notifyError(title, ("message" in failure && failure.message) || "Please try again.");
  };
  return { error, setError, conflicts, clear, fail };
}

/** The frame of a bulk action's dialog: the selection's size, the choice (children), its feedback, and
 * Cancel and submit; `after` sits between the feedback and the buttons (e.g. a ranking). */
export function BulkActionModal({
  opened,
  onClose,
  title,
  count,
  feedback,
  conflictTitle,
  submitLabel,
  pending,
  onSubmit,
  children,
  after,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  count: number;
  feedback: ReturnType<typeof useBulkFeedback>;
  conflictTitle: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: () => void;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <Stack>
        <Text size="sm">{count} session(s) selected.</Text>
        {children}
        {feedback.error ? (
          <Notice color="red" role="alert">
            {feedback.error}
          </Notice>
        ) : null}
        <ConflictAlert title={conflictTitle} conflicts={feedback.conflicts} />
        {after}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onSubmit} loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
