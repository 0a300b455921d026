/**
 * Outage is not the same as signed out (ADR 0018): a network failure or a 5xx answer means the server
 * could not be reached, and the page says so and tries again by itself; only a 401 means signed out.
 */
import { ApiError } from "./api";

/** What every screen says while the server cannot be reached. */
export const UNREACHABLE_TEXT = "Blockplan can't reach the server, retrying";
/** The sign-in form's message when the server cannot be reached. */
export const SIGN_IN_UNREACHABLE_TEXT = "The server is unreachable. Check your connection; Blockplan will answer again in a moment.";
/** How often the page asks again while the server cannot be reached (ms). */
export const RETRY_MS = 3000;

/** True for a failure that says nothing about the session: no answer at all (a fetch TypeError) or a 5xx. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof TypeError || (error instanceof Error && /Failed to fetch|NetworkError|Load failed/i.test(error.message));
}

/** Whether the server answers at all (any status below 500 of the session check; never throws). */
export async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch("/api/auth/user", { credentials: "same-origin", cache: "no-store" });
    return response.status < 500;
  } catch {
    return false;
  }
}
