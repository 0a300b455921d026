/**
 * "Undo" for the write just made (docs/adr/0012). Every successful write answers with
 * `X-Activity-Id`, the activity it recorded; the next success toast shown within a few seconds offers
 * "Undo" for exactly that activity for 10 seconds. Undoing answers with its own activity id, so the
 * "Change undone" toast offers "Undo" again, which is a redo.
 */
import { ApiError, apiFetch } from "./api";

export const UNDO_TOAST_MS = 10000;

/** The toast title after an undo: undoing an undo is a redo. */
export function undoneTitle(summary: string): string {
  return summary.includes(" redid: ") ? "Change redone" : "Change undone";
}

export interface UndoOutcome {
  ok: boolean;
  message: string;
}

/** POST /api/activity/{id}/undo. 409 (a later change is in the way, already undone) and 403 give the
 * server's sentence. */
export async function undoActivity(id: string): Promise<UndoOutcome> {
  try {
    const response = await apiFetch(`/api/activity/${id}/undo`, { method: "POST" });
    const body = (await response.json()) as { summary?: string };
    return { ok: true, message: body.summary ?? "" };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.body?.message ?? "The change could not be undone." };
    return { ok: false, message: "The change could not be undone. Check your connection and try again." };
  }
}
