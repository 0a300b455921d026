/** The timetable CSV export (docs/behaviour/reports.md §5 "Timetable export"), built in the browser. */
import dayjs from "dayjs";
import { downloadCsv } from "@/components/Csv";
import { formatDate, shortTime } from "@/components/Dates";
import { DAY_LABELS, STATUS_LABELS, type Session } from "../api/timetables";

export const EXPORT_COLUMNS = [
  "Date",
  "Day of Week",
  "Start Time",
  "End Time",
  "Week Number",
  "Unit Code",
  "Unit Name",
  "Block Group",
  "Teacher",
  "Room",
  "Status",
  "Actual Hours",
  "Notes",
];

const slug = (text: string) =>
  text
    .trim()
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** timetable-2026-03-02[-BG-CODE][-Teacher-Name][-future-only].csv */
export function exportFileName(opts: { blockGroupCode?: string; teacherName?: string; futureOnly: boolean; today?: string }): string {
  const parts = ["timetable", opts.today ?? dayjs().format("YYYY-MM-DD")];
  if (opts.blockGroupCode) parts.push(slug(opts.blockGroupCode));
  if (opts.teacherName) parts.push(slug(opts.teacherName));
  if (opts.futureOnly) parts.push("future-only");
  return `${parts.join("-")}.csv`;
}

export function exportRows(sessions: Session[]): unknown[][] {
  return sessions.map((s) => [
    formatDate(s.actualDate),
    DAY_LABELS[dayjs(s.actualDate).day() === 0 ? 7 : dayjs(s.actualDate).day()] ?? "",
    shortTime(s.startTime),
    shortTime(s.endTime),
    s.weekNumber,
    s.unit?.code ?? "",
    s.status === "cancelled" ? "Holiday/Term Break" : (s.unit?.name ?? ""),
    s.blockGroup?.code ?? "",
    s.teacher ? s.teacher.name || `${s.teacher.firstName} ${s.teacher.lastName}` : "Unassigned",
    s.status === "cancelled" ? "N/A" : s.room,
    STATUS_LABELS[s.status] ?? s.status,
    s.actualHours,
    s.notes ?? "",
  ]);
}

export function exportSessions(sessions: Session[], name: string) {
  downloadCsv(name, EXPORT_COLUMNS, exportRows(sessions));
}
