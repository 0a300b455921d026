/** Toasts of docs/behaviour/errors.md §9: success and destructive (failure) styles, one at a time, 5 s. */
import { Button, Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { UNDO_TOAST_MS, undoActivity, undoneTitle } from "./activityUndo";
import { takeRecentActivity } from "./recentActivity";

/**
 * The one place toasts are shown; close-button label and text colour come from the theme (providers).
 * A success toast that follows a write offers "Undo" for that write for 10 seconds (ADR 0012).
 */
export function showToast(color: "green" | "red" | "blue" | "yellow", title: string, message = "", autoClose = 5000) {
  // The outcome of an action (success or failure) replaces what is shown or queued at once (ADR 0018): a
  // retry's success is not hidden behind the stale error of the failed try, nor a newer error behind an
  // older one. Information (blue, yellow) queues behind it, so a success's Undo stays reachable.
  if (color === "green" || color === "red") notifications.clean();
  const activityId = color === "green" ? takeRecentActivity() : null;
  if (!activityId) {
    notifications.show({ title, message, color, autoClose });
    return;
  }
  const id = `undo-${activityId}`;
  notifications.show({
    id,
    title,
    color,
    autoClose: Math.max(autoClose, UNDO_TOAST_MS),
    message: <UndoableMessage message={message} activityId={activityId} toastId={id} />,
  });
}

/** Undo an activity and say how it went ("Change undone" / "Change redone", or the server's reason). */
export async function undoAndTell(activityId: string, beforeTelling?: () => void) {
  const outcome = await undoActivity(activityId);
  beforeTelling?.();
  if (outcome.ok) showToast("green", undoneTitle(outcome.message), outcome.message);
  else showToast("red", "Could not undo", outcome.message, 8000);
}

function UndoableMessage({ message, activityId, toastId }: { message: string; activityId: string; toastId: string }) {
  const [busy, setBusy] = useState(false);
  const undo = () => {
    setBusy(true);
    return undoAndTell(activityId, () => {
      // Toasts show one at a time: what was queued about the write (its warnings) is moot once it is undone.
      notifications.cleanQueue();
      notifications.hide(toastId);
    });
  };
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      {message ? <Text size="sm">{message}</Text> : <span />}
      <Button size="compact-sm" variant="light" onClick={undo} loading={busy} data-testid="toast-undo" style={{ flexShrink: 0 }}>
        Undo
      </Button>
    </Group>
  );
}

export function notifySuccess(title: string, message?: string) {
  showToast("green", title, message);
}

export function notifyError(title: string, message?: string) {
  showToast("red", title, message, 6000);
}

export function notifyInfo(title: string, message?: string) {
  showToast("blue", title, message);
}
