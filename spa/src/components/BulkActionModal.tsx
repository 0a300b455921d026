import { Modal, Stack, Text } from "@mantine/core";
import { type ReactNode, useEffect, useState } from "react";
import { ConflictAlert } from "./ConflictAlert";
import { FormActions } from "./FormActions";
import { Notice } from "./Notice";
import { classifyError, notifyError, notifySuccess, notifyWarning, type ConflictItem } from "./Notify";

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

/** What a page gives a bulk action's dialog: whether it is open, how to close it, the selected sessions, and what to do after the write. */
export interface BulkActionProps {
  opened: boolean;
  onClose: () => void;
  sessionIds: string[];
  onDone: () => void;
}

/** What a bulk action's dialog says: its title and button, and its messages before and after the write. */
export interface BulkActionText<R> {
  title: string;
  submit: string;
  /** Shown when no session or nothing to apply is chosen. */
  missing: string;
  /** The title of a 409's clashes. */
  refused: string;
  /** The success toast's message, from the write's answer and the number of sessions selected. */
  saved: (result: R, count: number) => string;
  /** The yellow toast's title of a write that went through with warnings. */
  warnings: string;
  /** The red toast's title of a failed write. */
  failed: string;
}

/**
 * The dialog of a bulk action on the selected sessions: the selection's size, the choice (children),
 * its feedback, and Cancel and submit. The submit asks for a choice, runs `write` with the sessions and
 * the choice, toasts the result and its warnings, then calls `onDone` and closes; a refused write shows
 * its clashes. `after` sits between the feedback and the buttons (e.g. a ranking).
 */
export function BulkActionModal<R extends { warnings?: { message: string }[] }>({
  opened,
  onClose,
  sessionIds,
  onDone,
  choice,
  text,
  write,
  children,
  after,
}: BulkActionProps & {
  choice: string | null;
  text: BulkActionText<R>;
  write: (sessionIds: string[], choice: string) => Promise<R>;
  children: ReactNode;
  after?: ReactNode;
}) {
  const feedback = useBulkFeedback(opened);
  const [pending, setPending] = useState(false);
  const submit = () => {
    feedback.clear();
    if (!sessionIds.length || !choice) {
      feedback.setError(text.missing);
      return;
    }
    setPending(true);
    write(sessionIds, choice)
      .then(
        (result) => {
          notifySuccess(text.saved(result, sessionIds.length));
          if (result?.warnings?.length) notifyWarning(text.warnings, result.warnings.map((w) => w.message).join(" "));
          onDone();
          onClose();
        },
        (e) => feedback.fail(e, text.failed),
      )
      .finally(() => setPending(false));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={text.title} size="lg">
      <Stack>
        <Text size="sm">{sessionIds.length} session(s) selected.</Text>
        {children}
        {feedback.error ? (
          <Notice color="red" role="alert">
            {feedback.error}
          </Notice>
        ) : null}
        <ConflictAlert title={text.refused} conflicts={feedback.conflicts} />
        {after}
        <FormActions onCancel={onClose} submitLabel={text.submit} loading={pending} onSubmit={submit} />
      </Stack>
    </Modal>
  );
}
