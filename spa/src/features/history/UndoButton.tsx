import { Badge, Button } from "@mantine/core";
import { useState } from "react";
import { undoActivity, undoneTitle } from "../../lib/activityUndo";
import { showToast } from "../../lib/notify";
import type { Activity } from "./api";

/** A history row's "Undo" (issue 16): shown when this user may undo it; "Undone" once it was. The lists
 * refresh through the undo's change event like every other write. */
export function UndoCell({ activity }: { activity: Activity }) {
  const [busy, setBusy] = useState(false);
  if (activity.undoneById) {
    return (
      <Badge variant="light" color="gray" size="sm">
        Undone
      </Badge>
    );
  }
  if (!activity.canUndo) return null;
  const undo = async () => {
    setBusy(true);
    const outcome = await undoActivity(activity.id);
    setBusy(false);
    if (outcome.ok) showToast("green", undoneTitle(outcome.message), outcome.message);
    else showToast("red", "Could not undo", outcome.message, 8000);
  };
  return (
    <Button size="compact-xs" variant="subtle" onClick={undo} loading={busy} aria-label={`Undo: ${activity.summary}`}>
      Undo
    </Button>
  );
}
