import { Badge, Button } from "@mantine/core";
import { useState } from "react";
import { undoAndTell } from "@/lib/notify";
import { type Activity, isUndoOfUndo } from "@/lib/entities/activity";

/** A history row's "Undo" (ADR 0012): shown when this user may undo it; "Undone" once it was. Undoing an
 * undo is a redo, and its button says "Redo" (ADR 0018). The lists refresh through the undo's change event
 * like every other write. */
export function UndoCell({ activity }: { activity: Activity }) {
  const [busy, setBusy] = useState(false);
  if (activity.undoneById) {
    return (
      <Badge variant="light" color="gray" size="sm" style={{ flexShrink: 0, overflow: "visible" }} styles={{ label: { overflow: "visible" } }}>
        Undone
      </Badge>
    );
  }
  if (!activity.canUndo) return null;
  const undo = async () => {
    setBusy(true);
    await undoAndTell(activity.id);
    setBusy(false);
  };
  const label = isUndoOfUndo(activity) ? "Redo" : "Undo";
  return (
    <Button size="compact-xs" variant="subtle" onClick={undo} loading={busy} aria-label={`${label}: ${activity.summary}`} style={{ flexShrink: 0 }}>
      {label}
    </Button>
  );
}
