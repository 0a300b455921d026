/** Date helpers of the dashboard: Monday weeks, month ranges, h:mm a times (docs/behaviour/screens.md §3). */

const pad = (n: number) => String(n).padStart(2, "0");

export function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function parseIsoDate(value: string): Date {
  const [y, m, d] = value.slice(0, 10).split("-").map(Number);
  return new Date(y, (m || 1) - 1, d || 1);
}

export function addDays(d: Date, n: number): Date {
  const out = new Date(d);
  out.setDate(out.getDate() + n);
  return out;
}

/** The Monday of the week holding `d`. */
export function startOfWeek(d: Date): Date {
  const out = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const offset = (out.getDay() + 6) % 7; // Monday 0 .. Sunday 6
  return addDays(out, -offset);
}

export type PlannerView = "week" | "month";

/** The inclusive date range shown for the anchor date. */
export function plannerRange(anchor: Date, view: PlannerView): { start: Date; end: Date } {
  if (view === "week") {
    const start = startOfWeek(anchor);
    return { start, end: addDays(start, 6) };
  }
  const start = new Date(anchor.getFullYear(), anchor.getMonth(), 1);
  const end = new Date(anchor.getFullYear(), anchor.getMonth() + 1, 0);
  return { start, end };
}

/** Previous/next: one week or one month. */
export function shiftAnchor(anchor: Date, view: PlannerView, step: 1 | -1): Date {
  if (view === "week") return addDays(anchor, 7 * step);
  return new Date(anchor.getFullYear(), anchor.getMonth() + step, 1);
}

/** "HH:MM[:SS]" → "h:mm AM/PM". */
export function formatTime12(value: string): string {
  const [h, m] = value.split(":").map(Number);
  if (Number.isNaN(h)) return value;
  const suffix = h >= 12 ? "PM" : "AM";
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${pad(m || 0)} ${suffix}`;
}

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
export const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SHORT_MONTHS = MONTHS.map((m) => m.slice(0, 3));

export function formatDayMonth(d: Date): string {
  return `${d.getDate()} ${SHORT_MONTHS[d.getMonth()]}`;
}

export function formatRangeLabel(start: Date, end: Date, view: PlannerView): string {
  if (view === "month") return `${MONTHS[start.getMonth()]} ${start.getFullYear()}`;
  return `${formatDayMonth(start)} - ${formatDayMonth(end)} ${end.getFullYear()}`;
}

/** Workload colours: 95 or more warning, 85 to 94 success, below 85 primary. */
export function workloadColor(percentage: number): "yellow" | "green" | "indigo" {
  if (percentage >= 95) return "yellow";
  if (percentage >= 85) return "green";
  return "indigo";
}

/** Planner session badge: confirmed default, cancelled destructive, tentative secondary, others outline. */
export function allocationBadge(status: string): { variant: string; color: string } {
  switch (status) {
    case "confirmed":
      return { variant: "filled", color: "indigo" };
    case "cancelled":
      return { variant: "filled", color: "red" };
    case "tentative":
      return { variant: "light", color: "gray" };
    default:
      return { variant: "outline", color: "gray" };
  }
}

export function sessionStatusColor(status: string): string {
  switch (status) {
    case "confirmed":
      return "green";
    case "cancelled":
      return "red";
    case "completed":
      return "gray";
    default:
      return "blue";
  }
}
