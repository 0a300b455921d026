/** Date and number display helpers (delivery.md: dates en-AU; holiday cards dd MMM yyyy). */
import dayjs from "dayjs";

/** "2026-03-02" -> "02/03/2026" (en-AU short). */
export function formatDate(value: string | null | undefined, empty = ""): string {
  if (!value) return empty;
  const d = dayjs(value);
  return d.isValid() ? d.toDate().toLocaleDateString("en-AU", { day: "2-digit", month: "2-digit", year: "numeric" }) : empty;
}

/** "2026-03-02" -> "02 Mar 2026". */
export function formatDateLong(value: string | null | undefined, empty = ""): string {
  if (!value) return empty;
  const d = dayjs(value);
  return d.isValid() ? d.format("DD MMM YYYY") : empty;
}

/** "09:00:00" -> "09:00". */
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
