/**
 * What the planner board and the read-only session calendar share (docs/adr/0026-planner-board.md): date
 * and time helpers on "YYYY-MM-DD" / "HH:MM" text, the colours of sessions, the background events of the
 * shading, and the content of a session's card.
 */
import type { EventInput } from "@fullcalendar/core";
import type { BoardSession, Shade } from "@/lib/entities/planner";

export type ColourBy = "unit" | "teacher" | "status";

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
// White text on each of these has a contrast ratio of at least 4.5:1.
const PALETTE = ["#1c5d99", "#8a3b12", "#2b6a2b", "#6b2f8a", "#a0233b", "#0f6466", "#5c4a00", "#3d4a5c", "#7a2e5a", "#2f5d3a"];
const STATUS_COLOUR: Record<string, string> = { scheduled: "#1c5d99", confirmed: "#2b6a2b", cancelled: "#5f5f5f", completed: "#3d4a5c" };

export const pad = (n: number) => String(n).padStart(2, "0");
export const isoDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
export const hm = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
export const atMinutes = (m: number) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return isoDate(new Date(y, m - 1, d + n));
}

export function weekday(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return DAY_NAMES[new Date(y, m - 1, d).getDay()];
}

export function hashColour(key: string): string {
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) | 0;
  return PALETTE[Math.abs(h) % PALETTE.length];
}

export function colourOf(s: BoardSession, by: ColourBy): string {
  if (by === "status") return STATUS_COLOUR[s.status] ?? "#3d4a5c";
  if (by === "teacher") return s.teacher ? hashColour(s.teacher.id) : "#5f5f5f";
  return hashColour(s.unit.id);
}

/** "ICTCYS407 Tue 09:00" */
export function sessionLabel(s: { unit: { code: string }; actualDate: string; startTime: string }): string {
  return `${s.unit.code} ${weekday(s.actualDate)} ${s.startTime}`;
}

/** A background event over whole days ``date``..``end`` (inclusive): all-day in the day grids, 00:00 to
 * 24:00 in the time grid (it has no all-day row). */
export function wholeDays(date: string, end: string, reason: string, cls: string, dayGrid: boolean): EventInput {
  return dayGrid
    ? { start: date, end: addDays(end, 1), allDay: true, display: "background", classNames: [cls], extendedProps: { reason } }
    : { start: `${date}T00:00`, end: `${addDays(end, 1)}T00:00`, display: "background", classNames: [cls], extendedProps: { reason } };
}

const SHADE_CLASS: Record<string, string> = {
  leave: "bp-shade-leave",
  term_break: "bp-shade-break",
  unavailable: "bp-shade-unavailable",
};

/** Background events of holidays, term breaks, leave and unavailable time (part-day leave and unavailable
 * time as their hours in the time grid; in the day grids unavailable time shades only a day it fills,
 * 07:00-22:00, the board's day). */
export function shadingEvents(shading: Shade[], dayGrid: boolean): EventInput[] {
  const out: EventInput[] = [];
  for (const shade of shading) {
    const cls = SHADE_CLASS[shade.kind] ?? "bp-shade-holiday";
    if (dayGrid && shade.kind === "unavailable" && !(shade.startTime === "07:00" && shade.endTime === "22:00")) continue;
    if (shade.startTime && shade.endTime && !dayGrid) {
      for (let d = shade.start; d <= shade.end; d = addDays(d, 1)) {
        out.push({
          start: `${d}T${shade.startTime}`,
          end: `${d}T${shade.endTime}`,
          display: "background",
          classNames: [cls],
          extendedProps: { reason: shade.name },
        });
      }
    } else out.push(wholeDays(shade.start, shade.end, shade.name, cls, dayGrid));
  }
  return out;
}

/** A card's time as FullCalendar would write it ("09:00" in the day grids, "09:00 - 12:00" in the time
 * grid), from the event's own start and end, so a card being dragged shows where it would land. The
 * calendars set `displayEventTime={false}`: FullCalendar's formatter costs more than the card. */
export function cardTime(start: Date | null, end: Date | null, timeGrid: boolean): string {
  if (!start) return "";
  return timeGrid && end ? `${hm(start)} - ${hm(end)}` : hm(start);
}

/** A session's card as plain DOM (text only, no markup from data): unit and time, group, teacher, room,
 * who holds it and a note. FullCalendar's React content would mount a portal per card: seconds for a term. */
export function sessionCardNode(s: BoardSession, timeText: string, held?: string, note?: string): HTMLElement {
  const card = document.createElement("div");
  card.className = "bp-card";
  const line = (text: string, extra = "") => {
    const el = document.createElement("div");
    el.className = `bp-card-line${extra}`;
    el.textContent = text;
    card.appendChild(el);
    return el;
  };
  const first = line(` ${timeText}`);
  const code = document.createElement("strong");
  code.textContent = s.unit.code;
  first.prepend(code);
  line(s.blockGroup.code);
  line(s.teacher?.name ?? "Unassigned");
  if (s.room) line(s.room);
  if (held) line(`Held by ${held}`, " bp-held-note");
  if (note) line(note, " bp-held-note");
  return card;
}

/** What a crowded day of the day grids (month, term) shows: at most `perDay` cards, or `perDay - 1` and
 * one "+n more" card standing for the others. */
export interface DayOverflow {
  date: string; // YYYY-MM-DD
  count: number; // the sessions of that day not shown as cards
}

/** The day's hours a time grid shows by default. */
export const DAY_HOURS = { min: "07:00:00", max: "22:00:00" } as const;

/**
 * The hours a time grid shows: DAY_HOURS, widened to whole hours so that every session is on the page
 * (a class at 05:00 or until 23:30 would otherwise be drawn nowhere). Times are HH:MM or HH:MM:SS.
 */
export function slotRange(sessions: readonly { startTime: string; endTime: string }[]): { min: string; max: string } {
  let min: string = DAY_HOURS.min;
  let max: string = DAY_HOURS.max;
  for (const s of sessions) {
    const start = `${s.startTime.slice(0, 2)}:00:00`;
    if (start < min) min = start;
    const [hours, minutes = "00", seconds = "00"] = s.endTime.split(":");
    const endHour = Number(hours) + (Number(minutes) > 0 || Number(seconds) > 0 ? 1 : 0);
    const end = `${String(endHour).padStart(2, "0")}:00:00`;
    if (end > max) max = end;
  }
  return { min, max };
}

/**
 * The sessions the day grids show as cards, by day: all of a day's when they are at most `perDay`;
 * otherwise the first `perDay - 1` by start time, plus those in `keep` (a session moved by keyboard or held
 * by someone else stays in sight), and the rest counted in `more` (one "+n more" card a day, which opens
 * that week). A busy group's term of 960 sessions would otherwise lay out 14 cards a day, a page of
 * 12,000 pixels, and take longer to draw than the 300 ms the board allows itself.
 */
export function capPerDay<S extends { id: string; actualDate: string; startTime: string }>(
  sessions: S[],
  perDay: number,
  keep: ReadonlySet<string> = new Set(),
): { shown: S[]; more: DayOverflow[] } {
  const byDay = new Map<string, S[]>();
  for (const s of sessions) {
    const day = byDay.get(s.actualDate);
    if (day) day.push(s);
    else byDay.set(s.actualDate, [s]);
  }
  const shown: S[] = [];
  const more: DayOverflow[] = [];
  for (const [date, day] of byDay) {
    if (day.length <= perDay) {
      shown.push(...day);
      continue;
    }
    const sorted = [...day].sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0));
    let hidden = 0;
    sorted.forEach((s, i) => {
      if (i < perDay - 1 || keep.has(s.id)) shown.push(s);
      else hidden += 1;
    });
    if (hidden) more.push({ date, count: hidden });
  }
  return { shown, more };
}

/** The "+n more" card of a crowded day (plain DOM, like the session cards). */
export function moreCardNode(count: number): HTMLElement {
  const card = document.createElement("div");
  card.className = "bp-card bp-more-card";
  card.textContent = `+${count} more`;
  return card;
}
