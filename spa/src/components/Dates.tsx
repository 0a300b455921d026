/** Date and number display helpers (dates en-AU; holiday cards dd MMM yyyy). */
import dayjs from "dayjs";

/**
 * The signed-in user's date and time formats (Settings > Regional; docs/behaviour/api.md §3 DD/MM/YYYY and
 * 24 hour). The shell sets them from the saved settings before its pages render (the user's
 * formats apply wherever dates and times are shown; exports and the wire keep theirs).
 */
const formats = { date: "DD/MM/YYYY", time: "24h" as "12h" | "24h" };
const DATE_FORMATS = new Set(["DD/MM/YYYY", "MM/DD/YYYY", "YYYY-MM-DD"]);

export function setDisplayFormats(date: string | undefined, time: string | undefined) {
  formats.date = date && DATE_FORMATS.has(date) ? date : "DD/MM/YYYY";
  formats.time = time === "12h" ? "12h" : "24h";
}

/** "2026-03-02" -> "02/03/2026" in the user's date format (default DD/MM/YYYY, en-AU). */
export function formatDate(value: string | null | undefined, empty = ""): string {
  if (!value) return empty;
  const d = dayjs(value);
  return d.isValid() ? d.format(formats.date) : empty;
}

/** "13:05:00" -> "13:05", or "1:05 pm" for a user who chose the 12 hour format. */
export function displayTime(value: string | null | undefined): string {
  if (!value) return "";
  if (formats.time === "24h") return value.slice(0, 5);
  const [h, m] = value.split(":").map(Number);
  return `${h % 12 || 12}:${String(m).padStart(2, "0")} ${h < 12 ? "am" : "pm"}`;
}

/** "2026-03-02" -> "02 Mar 2026". */
export function formatDateLong(value: string | null | undefined, empty = ""): string {
  if (!value) return empty;
  const d = dayjs(value);
  return d.isValid() ? d.format("DD MMM YYYY") : empty;
}

/** "09:00:00" -> "09:00" (always 24 hour: exports, form values; screens use displayTime). */
export function shortTime(value: string | null | undefined): string {
  return value ? value.slice(0, 5) : "";
}

export function todayIso(): string {
  return dayjs().format("YYYY-MM-DD");
}

/** Hours with up to two decimals, trailing zeros dropped: 3 -> "3", 2.5 -> "2.5". */
export function hours(value: number | null | undefined): string {
  const n = Number(value ?? 0);
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}
