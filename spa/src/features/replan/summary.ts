/**
 * What the re-plan review says (ADR 0015): the summary sentence, each option's figures, the affected weeks
 * and reasons, with dates and times in the user's formats (components/Dates).
 */
import dayjs from "dayjs";
import { formatDate, hours } from "@/components/Dates";
import { plural } from "@/lib/format";
import type { Proposal, ReplanChange, ReplanOption } from "./api";

/** "2026-12-01" -> "Tue 01/12/2026" (the user's date format). */
export const weekday = (iso: string) => `${dayjs(iso).format("ddd")} ${formatDate(iso)}`;

/** The server's reasons name dates as YYYY-MM-DD: shown in the user's format. */
export const localDates = (text: string) => text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (iso) => formatDate(iso));

const moves = (n: number) => `${plural(n, "session")} ${n === 1 ? "moves" : "move"}`;

function endDates(option: ReplanOption): string {
  const ext = option.figures.endDatesExtended;
  if (!ext.length) return "end dates unchanged";
  return ext.map((e) => `${e.code} ends ${formatDate(e.to)} instead of ${formatDate(e.from)}`).join(", ");
}

/** One option in a clause: "Make-up: 4 sessions move, end dates unchanged". */
function optionClause(option: ReplanOption, kind: string): string {
  const f = option.figures;
  const parts =
    kind === "leave"
      ? [`${plural(f.teachersChanged, "session")} ${f.teachersChanged === 1 ? "gets" : "get"} another teacher`]
      : [moves(f.sessionsMoved), ...(f.hoursMovedToOtherWeek ? [`${hours(f.hoursMovedToOtherWeek)} hours to another week`] : []), endDates(option)];
  if (f.unresolved) parts.push(`${plural(f.unresolved, "session")} not fixed`);
  return `${option.label}: ${parts.join(", ")}`;
}

/**
 * "4 sessions of 2 block groups fall on Tue 01/12/2026. Make-up: 4 sessions move, end dates unchanged.
 * Shift: 42 sessions move, 120 hours to another week, ICT-EVE ends 13/07/2027 instead of 24/06/2027."
 */
export function summarySentence(p: Proposal): string {
  const hit = p.figures.sessionsHit;
  if (!hit) return `${p.description}: no session falls on it. Nothing to change.`;
  const groups = new Set(p.options.flatMap((o) => [...o.changes.map((c) => c.blockGroupCode), ...o.unresolved.map((u) => u.blockGroupCode)])).size;
  const when = p.start === p.end ? weekday(p.start) : `${weekday(p.start)} to ${weekday(p.end)}`;
  const verb = hit === 1 ? "falls" : "fall";
  const where = p.kind === "leave" ? `${verb} in ${p.description} (${when})` : `${verb} on ${when}`;
  const first = `${plural(hit, "session")} of ${plural(Math.max(groups, 1), "block group")} ${where}.`;
  return [first, ...p.options.map((o) => `${optionClause(o, p.kind)}.`)].join(" ");
}

/** An option's figures on one line, as its choice shows them. */
export function optionFigures(option: ReplanOption): string {
  const f = option.figures;
  return [
    `${plural(f.sessionsMoved, "session")} moved`,
    `${hours(f.hoursMovedToOtherWeek)} hours to another week`,
    endDates(option),
    `${plural(f.teachersChanged, "session")} with another teacher`,
    ...(f.unresolved ? [`${plural(f.unresolved, "session")} not fixed`] : []),
  ].join(" · ");
}

export interface WeekDay {
  date: string;
  out: ReplanChange[];
  in: ReplanChange[];
  /** Sessions of the moved sessions' block groups that stay where they are ("code HH:MM:SS" sorted). */
  stay: { key: string; code: string; startTime: string }[];
}

/** A session the grid may show around the moves: of a block group of a moved session, not cancelled. */
export interface Around {
  id: string;
  blockGroupCode: string;
  actualDate: string;
  startTime: string;
}

/**
 * The weeks (Monday to Sunday) a move leaves or enters, earliest first, at most ``limit`` of them
 * (``more``: how many are left out); each with its weekdays (and a weekend day only when one is used),
 * the moved sessions leaving and arriving on each, and of ``around`` (the sessions of the moved sessions'
 * block groups) those that stay.
 */
export function affectedWeeks(changes: ReplanChange[], limit: number, around: Around[] = []): { weeks: { start: string; days: WeekDay[] }[]; more: number } {
  const moved = changes.filter((c) => c.from.actualDate !== c.to.actualDate);
  const movedIds = new Set(moved.map((c) => c.sessionId));
  const monday = (iso: string) => {
    const d = dayjs(iso);
    return d.subtract((d.day() + 6) % 7, "day").format("YYYY-MM-DD");
  };
  const starts = [...new Set(moved.flatMap((c) => [monday(c.from.actualDate), monday(c.to.actualDate)]))].sort();
  const weeks = starts.slice(0, limit).map((start) => {
    const all = Array.from({ length: 7 }, (_, i) => dayjs(start).add(i, "day").format("YYYY-MM-DD"));
    const days = all.map((date) => ({
      date,
      out: moved.filter((c) => c.from.actualDate === date),
      in: moved.filter((c) => c.to.actualDate === date),
      stay: around
        .filter((s) => s.actualDate === date && !movedIds.has(s.id))
        .map((s) => ({ key: s.id, code: s.blockGroupCode, startTime: s.startTime }))
        .sort((x, y) => x.startTime.localeCompare(y.startTime) || x.code.localeCompare(y.code)),
    }));
    return { start, days: days.filter((d, i) => i < 5 || d.out.length || d.in.length || d.stay.length) };
  });
  return { weeks, more: Math.max(0, starts.length - limit) };
}
