/**
 * Times as the forms type and show them, HH:MM, and as the wire carries them, HH:MM:SS: seconds are
 * added on the way out (docs/adr/0018). H:MM and HH:MM:SS are accepted too. The schedule dialog's
 * templates and the session form share them.
 */
import { z } from "zod";

const TIME_TYPED = /^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
export const TIME_MESSAGE = "Invalid time format, use HH:MM (24-hour)";
/** Whether `typed` is a time a form accepts (H:MM, HH:MM or HH:MM:SS, 24-hour). */
export const isTypedTime = (typed: string) => TIME_TYPED.test(typed.trim());
export function toWireTime(typed: string): string {
  const [h, m, sec] = typed.trim().split(":");
  return `${h.padStart(2, "0")}:${m}:${sec ?? "00"}`;
}
/** The wire time (HH:MM:SS) of a typed time, or "" when it is not one. */
export const asWireTime = (typed: unknown) => (typeof typed === "string" && TIME_TYPED.test(typed.trim()) ? toWireTime(typed.trim()) : "");
/** HH:MM of a wire time (HH:MM:SS) for showing and editing. */
export const shownTime = (wire: string) => wire.slice(0, 5);
export const typedTime = z.string().trim().regex(TIME_TYPED, TIME_MESSAGE).transform(toWireTime);
/** Minutes since midnight of a wire time (HH:MM:SS). */
export const wireMinutes = (wire: string) => {
  const [h, m, sec] = wire.split(":").map(Number);
  return h * 60 + m + (sec || 0) / 60;
};
/** The server's message for an end not after its start (zero-length or backwards). */
export const END_AFTER_START = "End time must be after start time";
/** A refinement for an object with wire `startTime` and `endTime`: the end after the start, shown on End Time. */
export const endAfterStart: [(v: { startTime: string; endTime: string }) => boolean, { path: string[]; message: string }] = [
  (v) => wireMinutes(v.endTime) > wireMinutes(v.startTime),
  { path: ["endTime"], message: END_AFTER_START },
];
