/**
 * A read-only calendar of sessions on the planner board's calendar (docs/adr/0026-planner-board.md), for
 * screens that show sessions in time without moving them: the re-plan review's before/after and a room's
 * week (features/rooms). Sessions as the board reads them (`GET /api/board`); `before` (optional) the same
 * sessions where they were: drawn as dashed outlines (class bp-before) behind the new places (class
 * bp-moved, highlighted), so a move reads as "from here to there". `onRange(from, to)` (optional) hears the
 * dates shown (YYYY-MM-DD, inclusive) at first and after each Previous, Next, Today or change of view, so a
 * screen can read the sessions of that range.
 */
import type { DatesSetArg, EventContentArg, EventInput, EventMountArg } from "@fullcalendar/core";
import enAu from "@fullcalendar/core/locales/en-au";
import dayGridPlugin from "@fullcalendar/daygrid";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { useCallback, useMemo, useRef, useState } from "react";
import type { BoardSession, Shade } from "@/lib/entities/planner";
import { type ColourBy, cardTime, colourOf, isoDate, sessionCardNode, shadingEvents, slotRange } from "./calendarParts";
import "./board.css";

export interface SessionCalendarProps {
  sessions: BoardSession[];
  before?: BoardSession[];
  shading?: Shade[];
  view?: "week" | "month" | "term";
  date?: string; // YYYY-MM-DD shown first
  colourBy?: ColourBy;
  onRange?: (from: string, to: string) => void;
}

const FC_VIEW = { week: "timeGridWeek", month: "dayGridMonth", term: "termView" } as const;

// Buttons in words, as on the board (FullCalendar's arrow icons are images without a name); their
// tooltips say what they step over ("Next week", "Previous month").
const BUTTON_TEXT = { today: "Today", week: "Week", month: "Month", prev: "Previous", next: "Next" };
const BUTTON_HINTS = { prev: "Previous $1", next: "Next $1", today: "This $1" };

// Stable defaults: a new [] at each render would lay every card out again.
const NONE: BoardSession[] = [];
const NO_SHADING: Shade[] = [];

/** A session's card carries its id (data-session-id), as on the board. */
function markSession(arg: EventMountArg) {
  const s = arg.event.extendedProps.session as BoardSession | undefined;
  if (s && !arg.event.id.startsWith("before-")) arg.el.dataset.sessionId = s.id;
}

export function SessionCalendar({ sessions, before = NONE, shading = NO_SHADING, view = "week", date, colourBy = "unit", onRange }: SessionCalendarProps) {
  const [viewType, setViewType] = useState<string>(FC_VIEW[view]);
  const dayGrid = viewType !== FC_VIEW.week;
  const rangeRef = useRef(onRange);
  rangeRef.current = onRange;
  const datesSet = useCallback((arg: DatesSetArg) => {
    setViewType(arg.view.type);
    rangeRef.current?.(isoDate(arg.start), isoDate(new Date(arg.end.getTime() - 86400000)));
  }, []);
  const hours = useMemo(() => slotRange([...sessions, ...before]), [sessions, before]);
  const events = useMemo<EventInput[]>(() => {
    const moved = new Set(before.map((s) => s.id));
    const out: EventInput[] = [];
    for (const s of before) {
      out.push({
        id: `before-${s.id}`,
        start: `${s.actualDate}T${s.startTime}`,
        end: `${s.actualDate}T${s.endTime}`,
        classNames: ["bp-before"],
        backgroundColor: "transparent",
        borderColor: colourOf(s, colourBy),
        textColor: "inherit",
        extendedProps: { session: s, note: "Before" },
      });
    }
    for (const s of sessions) {
      const colour = colourOf(s, colourBy);
      out.push({
        id: s.id,
        start: `${s.actualDate}T${s.startTime}`,
        end: `${s.actualDate}T${s.endTime}`,
        backgroundColor: colour,
        borderColor: colour,
        textColor: "#ffffff",
        classNames: ["bp-session", moved.has(s.id) ? "bp-moved" : "", s.status === "cancelled" ? "bp-cancelled" : ""].filter(Boolean),
        extendedProps: { session: s, note: moved.has(s.id) ? "After" : undefined },
      });
    }
    out.push(...shadingEvents(shading, dayGrid));
    return out;
  }, [sessions, before, shading, colourBy, dayGrid]);

  const content = (arg: EventContentArg) =>
    arg.event.display === "background"
      ? { domNodes: [] }
      : {
          domNodes: [
            sessionCardNode(
              arg.event.extendedProps.session as BoardSession,
              cardTime(arg.event.start, arg.event.end, arg.view.type === "timeGridWeek"),
              undefined,
              arg.event.extendedProps.note as string | undefined,
            ),
          ],
        };

  return (
    <div className="bp-board">
      <FullCalendar
        plugins={[timeGridPlugin, dayGridPlugin]}
        initialView={FC_VIEW[view]}
        initialDate={date}
        views={{ termView: { type: "dayGrid", duration: { weeks: 10 }, buttonText: "Term" } }}
        headerToolbar={{ left: "prev,next today", center: "title", right: "timeGridWeek,dayGridMonth,termView" }}
        buttonIcons={false}
        buttonText={BUTTON_TEXT}
        buttonHints={BUTTON_HINTS}
        locale={enAu}
        firstDay={1}
        allDaySlot={false}
        slotMinTime={hours.min}
        slotMaxTime={hours.max}
        slotLabelFormat={{ hour: "2-digit", minute: "2-digit", hour12: false }}
        displayEventTime={false}
        height="auto"
        eventDisplay="block"
        events={events}
        datesSet={datesSet}
        eventDidMount={markSession}
        eventContent={content}
      />
    </div>
  );
}
