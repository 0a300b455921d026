/**
 * The activity of the write just made (ADR 0011): every successful write answers with `X-Activity-Id`;
 * the next success toast shown within a few seconds takes it and offers "Undo" (lib/notify.ts).
 */
export const ACTIVITY_HEADER = "X-Activity-Id";
/** How long after a write its success toast may still pick it up. */
const FRESH_MS = 4000;

let recent: { id: string; at: number } | null = null;

/** Called by the API layer for every answer carrying X-Activity-Id. */
export function rememberActivity(response: Response) {
  const id = response.headers.get(ACTIVITY_HEADER);
  if (id) recent = { id, at: Date.now() };
}

/** The activity of the write just made, once (the success toast that shows it takes it). */
export function takeRecentActivity(now = Date.now()): string | null {
  if (!recent || now - recent.at > FRESH_MS) return null;
  const id = recent.id;
  recent = null;
  return id;
}
