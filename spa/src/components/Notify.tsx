/**
 * Toasts of docs/behaviour/errors.md §9 (Mantine notifications, 5 to 8 seconds) and the error classification every
 * save shares: 400 field errors, 409 duplicate code or scheduling conflict, 412 stale write, 401.
 */
import { ApiError, fieldErrors } from "@/lib/api";
import { showToast } from "@/lib/notify";

/** Content-area toasts last 6 s, failures 8 s (docs/behaviour/screens.md §6: 5 to 8 s). */
export const TOAST_MS = 6000;

export function notifySuccess(message: string, title = "Success") {
  showToast("green", title, message, TOAST_MS);
}

export function notifyError(title: string, message: string) {
  showToast("red", title, message, 8000);
}

export function notifyWarning(title: string, message: string) {
  showToast("yellow", title, message, 8000);
}

/** docs/behaviour/concurrency.md §2 (amended by ADR 0017): the second writer of a record sees this; the dialog keeps the
 * typing and shows what the other person changed. */
export const STALE_TITLE = "Changed by someone else";
export const STALE_MESSAGE = "Someone else changed this record while you were editing it. Your changes are kept; review theirs and save again.";

export interface ConflictItem {
  type: string;
  severity: string;
  sessionIds: string[];
  message: string;
}

export type SaveFailure =
  | { kind: "validation"; fields: Record<string, string>; messages: string[] }
  | { kind: "duplicate"; fields: Record<string, string>; message: string }
  | { kind: "conflict"; conflicts: ConflictItem[]; message: string }
  | { kind: "stale"; message: string }
  | { kind: "unauthorized" }
  | { kind: "notFound"; message: string }
  | { kind: "server"; message: string }
  | { kind: "other"; message: string };

/** Sorts an error thrown by apiJson/apiFetch into the cases the screens treat differently. */
export function classifyError(error: unknown): SaveFailure {
  if (!(error instanceof ApiError)) {
    return { kind: "other", message: error instanceof Error ? error.message : String(error) };
  }
  const body = error.body;
  const message = body?.message ?? "";
  switch (error.status) {
    case 400: {
      const fields = fieldErrors(error);
      return { kind: "validation", fields, messages: (body?.errors ?? []).map((e) => e.message).concat(body?.errors?.length ? [] : message ? [message] : []) };
    }
    case 401:
      return { kind: "unauthorized" };
    case 404:
      return { kind: "notFound", message };
    case 409:
      if (body?.type === "conflict" || body?.conflicts) {
        const conflicts = (body?.conflicts ?? []) as ConflictItem[];
        const text = conflicts.length ? conflicts.map((c) => c.message).join(" ") : message;
        return { kind: "conflict", conflicts, message: text || "The change clashes with another session." };
      }
      return { kind: "duplicate", fields: fieldErrors(error), message };
    case 412:
      return { kind: "stale", message: message || STALE_MESSAGE };
    default:
      if (error.status >= 500) return { kind: "server", message: message || "Server error occurred. Please try again." };
      return { kind: "other", message };
  }
}

/** True when a message looks like "<status>: <raw body>" rather than a sentence for people. */
export function isRawStatusMessage(message: string): boolean {
  return /^\d{3}:\s*[{[]/.test(message);
}
