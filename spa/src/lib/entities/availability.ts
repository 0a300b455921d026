/**
 * A teacher's painted availability pattern as the allocation grid reads it (docs/adr/0027): on which
 * weekdays of a week it has any window, and a one-line summary. Weekdays 0 = Monday .. 6 = Sunday.
 */
import type { components } from "../api-schema";

export const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export type Pattern = components["schemas"]["AvailabilityPatternOut"];

const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** The weekdays (0 = Monday) a painted pattern has any window on in the week from `weekStart` (a Monday), variants applied. */
export function daysAvailable(p: Pattern, weekStart: string): number[] {
  const days: number[] = [];
  for (let day = 0; day < 7; day++) {
    const date = addDays(weekStart, day);
    const variant = p.variants.find((v) => v.startDate <= date && date <= v.endDate);
    if ((variant ? variant.windows : p.windows).some((w) => w.weekday === day)) days.push(day);
  }
  return days;
}

/** "Mon, Wed · max 7 h/day" for the allocation grid's row label; "" for an unpainted pattern. */
export function patternSummary(p: Pattern): string {
  if (!p.custom) return "";
  const days = [...new Set(p.windows.map((w) => w.weekday))].sort().map((d) => DAYS[d].slice(0, 3));
  const limits = [p.maxHoursPerDay ? `max ${p.maxHoursPerDay} h/day` : "", p.maxDaysPerWeek ? `max ${p.maxDaysPerWeek} days` : ""].filter(Boolean);
  return [days.length ? days.join(", ") : "Not available", ...limits].join(" · ");
}
