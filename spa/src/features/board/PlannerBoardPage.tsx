/**
 * The planner board (docs/adr/0026-planner-board.md): a calendar of one block group, teacher, room or
 * campus at /planner/<scope>/<id>?view=week|month|term&date=YYYY-MM-DD, on FullCalendar's MIT packages.
 *
 * - Sessions show unit, group, teacher and room, coloured by unit, teacher or status (the user's choice,
 *   remembered); holidays, term breaks and leave are shaded.
 * - Drag to move, resize to change times: one PUT with If-Match (features/board/api.ts). While dragging,
 *   the slots where the drop would hard-conflict are shaded from the conflict index; the server's answer
 *   is final: a 409 or 412 puts the card back with the reason in words. A success toast offers Undo.
 * - Drag a session onto a teacher of the side list (teachers qualified for it, with their load that week)
 *   to give it to them; the list's buttons do the same by keyboard.
 * - Keyboard: a focused session moves with the arrow keys (left/right a day; up/down a slot in the week
 *   view, a week in the others), Enter saves, Escape puts it back.
 * - Together: the others on the board are listed with what they do; a session another user moves shows
 *   as held (features/board/boardPresence.ts). Their drops arrive through the timetables' live refetch.
 */
import type { DatesSetArg, EventClickArg, EventContentArg, EventInput, EventMountArg } from "@fullcalendar/core";
import enAu from "@fullcalendar/core/locales/en-au";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin, { type EventDragStartArg, type EventDragStopArg, type EventResizeDoneArg } from "@fullcalendar/interaction";
import type { EventDropArg } from "@fullcalendar/core";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { Alert, Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { IconPrinter } from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { PageHeader } from "@/components/PageHeader";
import { notifyError, showToast } from "@/lib/notify";
import { roots } from "@/lib/queryKeys";
import {
  type BoardSession,
  type ConflictIndex,
  fetchBoardTeachers,
  fetchConflictIndex,
  minutes,
  moveSession,
  type MoveTo,
  SCOPES,
  type Scope,
  useBoard,
  useUnavailableShading,
} from "./api";
import { reportBoardActivity, useBoardViewers } from "./boardPresence";
import { usePrinting } from "./usePrinting";
import {
  addDays,
  atMinutes,
  type ColourBy,
  capPerDay,
  slotRange,
  cardTime,
  colourOf,
  type DayOverflow,
  hm,
  isoDate,
  moreCardNode,
  sessionCardNode,
  sessionLabel,
  shadingEvents,
  weekday,
} from "@/components/calendar/calendarParts";
import "@/components/calendar/board.css";

type ViewName = "week" | "month" | "term";

const FC_VIEW: Record<ViewName, string> = { week: "timeGridWeek", month: "dayGridMonth", term: "termView" };
const VIEW_OF: Record<string, ViewName> = { timeGridWeek: "week", dayGridMonth: "month", termView: "term" };
const TERM_WEEKS = 10;
const SLOT_MINUTES = 30;
const COLOUR_KEY = "blockplan.board.colourBy";

const PLUGINS = [timeGridPlugin, dayGridPlugin, interactionPlugin];
// A crowded time slot (a campus's week) stacks at most MAX_STACK cards side by side and a "+n" link to
// the others: readable, and a drag does not re-lay out a hundred cards a column at every step.
const MAX_STACK = 4;
// A day of the month and term views shows at most DAY_CARDS cards (one of them "+n more" when crowded).
const DAY_CARDS = 4;
const VIEWS = { termView: { type: "dayGrid", duration: { weeks: TERM_WEEKS }, buttonText: "Term" }, timeGrid: { eventMaxStack: MAX_STACK } };
const TOOLBAR = { left: "prev,next today", center: "title", right: "timeGridWeek,dayGridMonth,termView" };
const BUTTON_TEXT = { today: "Today", week: "Week", month: "Month", prev: "Previous", next: "Next" };
const TIME_FORMAT = { hour: "2-digit", minute: "2-digit", hour12: false } as const;

/** A card's content as plain DOM (FullCalendar's React content would mount a portal per card: seconds for a term). */
function cardContent(arg: EventContentArg) {
  if (arg.event.display === "background") return { domNodes: [] };
  const more = arg.event.extendedProps.more as DayOverflow | undefined;
  if (more) return { domNodes: [moreCardNode(more.count)] };
  const time = cardTime(arg.event.start, arg.event.end, arg.view.type === FC_VIEW.week);
  return { domNodes: [sessionCardNode(arg.event.extendedProps.session as BoardSession, time, arg.event.extendedProps.held as string | undefined)] };
}

/**
 * Shades the slots of `blocked` in the calendar under `root` (the conflict index while dragging): in the
 * time grid a band over the blocked times of each day column, placed from the slot rows; in the day grids
 * the whole day when a blocked entry overlaps the moving session's times. Answers the elements added.
 */
function paintBlocked(root: HTMLElement, blocked: ConflictIndex["blocked"], moving: BoardSession | undefined, dayGrid: boolean): HTMLElement[] {
  const added: HTMLElement[] = [];
  const band = (host: Element | null, reason: string, top?: number, height?: number) => {
    if (!host) return;
    const el = document.createElement("div");
    el.className = "bp-blocked bp-blocked-band";
    el.title = reason;
    if (top !== undefined && height !== undefined) {
      el.style.top = `${top}px`;
      el.style.height = `${height}px`;
    } else {
      el.style.top = "0";
      el.style.bottom = "0";
    }
    host.appendChild(el);
    added.push(el);
  };
  if (dayGrid) {
    for (const b of blocked) {
      if (b.startTime && moving && !(b.startTime < moving.endTime && moving.startTime < (b.endTime ?? "24:00"))) continue;
      band(root.querySelector(`td.fc-daygrid-day[data-date="${b.date}"] .fc-daygrid-day-frame`), b.reason);
    }
    return added;
  }
  const lanes = Array.from(root.querySelectorAll<HTMLElement>("td.fc-timegrid-slot-lane[data-time]"));
  if (!lanes.length) return added;
  const origin = lanes[0].getBoundingClientRect().top;
  const rows = lanes.map((lane) => ({ minute: minutes(lane.dataset.time!.slice(0, 5)), top: lane.getBoundingClientRect().top - origin }));
  const slotHeight = lanes[0].getBoundingClientRect().height;
  const first = rows[0].minute;
  const last = rows[rows.length - 1].minute + SLOT_MINUTES;
  const y = (minute: number) => (Math.min(Math.max(minute, first), last) - first) * (slotHeight / SLOT_MINUTES);
  for (const b of blocked) {
    const host = root.querySelector(`td.fc-timegrid-col[data-date="${b.date}"] .fc-timegrid-col-frame`);
    const from = b.startTime ? minutes(b.startTime) : 0;
    const to = b.endTime ? minutes(b.endTime) : 24 * 60;
    const top = y(from);
    const height = y(to) - top;
    if (height > 0) band(host, b.reason, top, height);
  }
  return added;
}

interface Pending {
  sessionId: string;
  date: string;
  start: string;
  end: string;
}

function isScope(value: string | undefined): value is Scope {
  return SCOPES.includes(value as Scope);
}

export default function PlannerBoardPage() {
  const params = useParams();
  const scope = params.scope;
  const id = params.id ?? "";
  if (!isScope(scope)) {
    return (
      <Alert color="red" title="Unknown board">
        A board shows a block group, a teacher, a room or a campus.
      </Alert>
    );
  }
  return <Board scope={scope} id={id} />;
}

function Board({ scope, id }: { scope: Scope; id: string }) {
  const [search, setSearch] = useSearchParams();
  const view: ViewName = (["week", "month", "term"] as const).find((v) => v === search.get("view")) ?? "week";
  const initialDate = search.get("date") ?? undefined;
  const base = `/planner/${scope}/${id}`;
  const queryClient = useQueryClient();
  const calendarRef = useRef<FullCalendar>(null);
  const calendarBox = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState<{ from: string; to: string; type: string } | null>(null);
  const [colourBy, setColourBy] = useState<ColourBy>(() => (localStorage.getItem(COLOUR_KEY) as ColourBy) || "unit");
  const [index, setIndex] = useState<ConflictIndex | null>(null);
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState("");
  const focusRef = useRef<string | null>(null);
  const board = useBoard(scope, id, range?.from ?? null, range?.to ?? null);
  const sessions = board.data?.sessions ?? [];
  const byId = useMemo(() => new Map(sessions.map((s) => [s.id, s])), [sessions]);
  const viewers = useBoardViewers(base);
  // Keyed by its text, so a presence list that changes nothing here keeps the cards as they are.
  const heldKey = viewers
    .filter((v) => v.movingSessionId)
    .map((v) => `${v.movingSessionId}\t${v.name}`)
    .sort()
    .join("\n");
  const heldBy = useMemo(() => new Map(heldKey ? heldKey.split("\n").map((line) => line.split("\t") as [string, string]) : []), [heldKey]);
  const selected = selectedId ? byId.get(selectedId) : undefined;
  const teachers = useQuery({
    queryKey: [...roots.timetables, "board-teachers", selectedId],
    enabled: Boolean(selectedId),
    queryFn: () => fetchBoardTeachers(selectedId!),
  });
  const dayGrid = range?.type !== "timeGridWeek";
  const printing = usePrinting();
  // Every session on the page: the time grid widens past 07:00-22:00 for a class outside them.
  const hours = useMemo(() => slotRange(sessions), [sessions]);

  useEffect(() => () => reportBoardActivity(base, null), [base]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: roots.timetables }), [queryClient]);

  // The conflict index shown: of the session being moved, or of a selected or dragged session given to a
  // candidate teacher of the side list (pointed at or focused). Answers are kept per session, teacher and
  // range until the board's data changes (a change event refetches it), and only the one still wanted is
  // shown: an answer that arrives after the drag ended is dropped.
  const [candidate, setCandidate] = useState<string | null>(null);
  const indexCache = useRef(new Map<string, Promise<ConflictIndex>>());
  const indexWanted = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the board's data changes
  useEffect(() => indexCache.current.clear(), [board.data]);
  const showIndex = useCallback(
    (sessionId: string | null, teacherId?: string) => {
      if (!sessionId || !range) {
        indexWanted.current = null;
        setIndex(null);
        return;
      }
      const key = `${sessionId}|${teacherId ?? ""}|${range.from}|${range.to}`;
      indexWanted.current = key;
      let answer = indexCache.current.get(key);
      if (!answer) {
        answer = fetchConflictIndex(sessionId, range.from, range.to, teacherId);
        indexCache.current.set(key, answer);
        answer.catch(() => indexCache.current.delete(key));
      }
      answer.then(
        (found) => indexWanted.current === key && setIndex(found),
        () => indexWanted.current === key && setIndex(null),
      );
    },
    [range],
  );

  const startActivity = useCallback(
    (sessionId: string) => {
      reportBoardActivity(base, sessionId);
      showIndex(sessionId);
    },
    [base, showIndex],
  );

  const endActivity = useCallback(() => {
    reportBoardActivity(base, null);
    showIndex(null);
    setDraggingId(null);
    setCandidate(null);
  }, [base, showIndex]);

  // While a session is dragged: the teacher of the side list under the pointer is the candidate, and the
  // calendar shades that teacher's clashes (looked up once an animation frame, from the event's target).
  const dragWatch = useRef<(() => void) | null>(null);
  const watchCandidates = (sessionId: string) => {
    dragWatch.current?.();
    let current: string | null = null;
    let target: EventTarget | null = null;
    let frame = 0;
    const look = () => {
      frame = 0;
      const id = target instanceof Element ? (target.closest<HTMLElement>("[data-teacher-drop]")?.dataset.teacherDrop ?? null) : null;
      if (id === current) return;
      current = id;
      setCandidate(id);
      showIndex(sessionId, id ?? undefined);
    };
    const move = (e: PointerEvent) => {
      target = e.target;
      if (!frame) frame = requestAnimationFrame(look);
    };
    document.addEventListener("pointermove", move, { passive: true });
    dragWatch.current = () => {
      document.removeEventListener("pointermove", move);
      if (frame) cancelAnimationFrame(frame);
      dragWatch.current = null;
    };
  };
  useEffect(() => () => dragWatch.current?.(), []);

  /** A teacher of the side list pointed at or focused (null: left) while a session is selected, not moved. */
  const pointTeacher = (teacherId: string | null) => {
    if (draggingId || pending || !selected) return;
    setCandidate(teacherId);
    showIndex(teacherId ? selected.id : null, teacherId ?? undefined);
  };

  const save = useCallback(
    async (session: BoardSession, to: MoveTo, revert: () => void) => {
      setStatus(`Saving ${sessionLabel(session)}…`);
      const outcome = await moveSession(session, to);
      if (outcome.ok) {
        const what = to.teacherId !== undefined ? "Session assigned" : "Session moved";
        const text = `${session.unit.code} ${session.blockGroup.code}: ${weekday(to.date)} ${to.date} ${to.start}–${to.end}`;
        setStatus(`${what}. ${text}`);
        showToast("green", what, text);
      } else {
        revert();
        setStatus(`Not saved: ${outcome.reason}`);
        notifyError(outcome.status === 412 ? "Changed by someone else" : "Move refused", outcome.reason);
      }
      await refresh();
    },
    [refresh],
  );

  const onDragStart = (arg: EventDragStartArg) => {
    setDraggingId(arg.event.id);
    setSelectedId(arg.event.id);
    startActivity(arg.event.id);
    watchCandidates(arg.event.id);
  };

  const onDragStop = (arg: EventDragStopArg) => {
    const session = byId.get(arg.event.id);
    const { clientX, clientY } = arg.jsEvent as MouseEvent;
    const target = (document.elementFromPoint(clientX, clientY) as HTMLElement | null)?.closest<HTMLElement>("[data-teacher-drop]");
    dragWatch.current?.();
    endActivity();
    if (session && target?.dataset.teacherDrop) {
      void save(session, { date: session.actualDate, start: session.startTime, end: session.endTime, teacherId: target.dataset.teacherDrop }, () => undefined);
    }
  };

  const onDrop = (arg: EventDropArg | EventResizeDoneArg) => {
    const session = byId.get(arg.event.id);
    const start = arg.event.start;
    if (!session || !start) return arg.revert();
    const end = arg.event.end ?? new Date(start.getTime() + (minutes(session.endTime) - minutes(session.startTime)) * 60000);
    void save(session, { date: isoDate(start), start: hm(start), end: hm(end) }, arg.revert);
  };

  const assign = (teacherId: string) => {
    if (!selected) return;
    void save(selected, { date: selected.actualDate, start: selected.startTime, end: selected.endTime, teacherId }, () => undefined);
  };

  const keyRef = useRef<(sessionId: string, event: KeyboardEvent) => void>(() => undefined);
  keyRef.current = (sessionId, event) => {
    const session = byId.get(sessionId);
    if (!session || heldBy.has(sessionId)) return;
    const current = pending?.sessionId === sessionId ? pending : { sessionId, date: session.actualDate, start: session.startTime, end: session.endTime };
    const length = minutes(current.end) - minutes(current.start);
    let next: Pending | null = null;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      next = { ...current, date: addDays(current.date, event.key === "ArrowLeft" ? -1 : 1) };
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      const sign = event.key === "ArrowUp" ? -1 : 1;
      if (dayGrid) next = { ...current, date: addDays(current.date, 7 * sign) };
      else {
        const start = Math.min(Math.max(minutes(current.start) + sign * SLOT_MINUTES, 0), 24 * 60 - length);
        next = { ...current, start: atMinutes(start), end: atMinutes(start + length) };
      }
    } else if (event.key === "Enter" && pending?.sessionId === sessionId) {
      event.preventDefault();
      event.stopPropagation();
      const to = { date: pending.date, start: pending.start, end: pending.end };
      setPending(null);
      endActivity();
      void save(session, to, () => undefined);
      return;
    } else if (event.key === "Escape" && pending) {
      setPending(null);
      endActivity();
      setStatus("Move cancelled");
      return;
    } else return;
    event.preventDefault();
    event.stopPropagation();
    if (!pending || pending.sessionId !== sessionId) startActivity(sessionId);
    focusRef.current = sessionId;
    setPending(next);
    setStatus(`${session.unit.code} to ${weekday(next.date)} ${next.date} ${next.start}–${next.end}. Enter saves, Escape cancels.`);
  };

  // Three event sources, each its own array: FullCalendar resets only the source whose array changed
  // (the conflict index while dragging leaves the sessions' cards alone).
  const sessionEvents = useMemo<EventInput[]>(() => {
    // The day grids show at most DAY_CARDS cards a day and a "+n more" card (calendarParts.capPerDay).
    const keep = new Set<string>(heldBy.keys());
    if (pending) keep.add(pending.sessionId);
    // Printed, every session shows: a timetable on a classroom door has no "+n more" to click.
    const { shown, more } = dayGrid && !printing ? capPerDay(sessions, DAY_CARDS, keep) : { shown: sessions, more: [] };
    const out: EventInput[] = shown.map((s) => {
      const at = pending?.sessionId === s.id ? pending : { date: s.actualDate, start: s.startTime, end: s.endTime };
      const held = heldBy.get(s.id);
      const colour = colourOf(s, colourBy);
      return {
        id: s.id,
        title: `${s.unit.code} ${s.blockGroup.code}`,
        start: `${at.date}T${at.start}`,
        end: `${at.date}T${at.end}`,
        editable: !held,
        durationEditable: !held && !dayGrid,
        backgroundColor: colour,
        borderColor: colour,
        textColor: "#ffffff",
        classNames: [
          "bp-session",
          held ? "bp-held" : "",
          pending?.sessionId === s.id ? "bp-pending" : "",
          s.status === "cancelled" ? "bp-cancelled" : "",
        ].filter(Boolean),
        extendedProps: { session: s, held },
      };
    });
    for (const m of more) {
      // Last in its day (the day grids order a day's cards by start time).
      out.push({
        id: `more:${m.date}`,
        start: `${m.date}T23:58`,
        end: `${m.date}T23:59`,
        editable: false,
        classNames: ["bp-more"],
        backgroundColor: "transparent",
        borderColor: "var(--mantine-color-default-border)",
        textColor: "var(--mantine-color-text)",
        extendedProps: { more: m },
      });
    }
    return out;
  }, [sessions, pending, heldBy, colourBy, dayGrid, printing]);
  const shading = board.data?.shading;
  // A teacher's board shades the teacher's unavailable time; a block group's that of its sessions' teachers.
  const teacherKey =
    scope === "teacher"
      ? `${id}\t${board.data?.title ?? ""}`
      : scope === "block-group"
        ? [...new Map(sessions.flatMap((s) => (s.teacher ? [[s.teacher.id, s.teacher.name] as const] : []))).entries()]
            .sort()
            .map(([tid, name]) => `${tid}\t${name}`)
            .join("\n")
        : "";
  const shadedTeachers = useMemo(
    () =>
      teacherKey
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [tid, name] = line.split("\t");
          return { id: tid, name };
        }),
    [teacherKey],
  );
  const unavailable = useUnavailableShading(shadedTeachers, range?.from ?? null, range?.to ?? null, scope !== "teacher");
  const shadeEvents = useMemo<EventInput[]>(() => shadingEvents([...(shading ?? []), ...unavailable], dayGrid), [shading, unavailable, dayGrid]);
  const sources = useMemo(() => [sessionEvents, shadeEvents], [sessionEvents, shadeEvents]);
  // The conflict index is drawn straight into the calendar's day cells while a session is dragged: as
  // events it would make FullCalendar lay out every card again at the start and the end of each drag.
  useEffect(() => {
    const root = calendarBox.current;
    if (!root || !index) return;
    const moving = byId.get(index.sessionId);
    const drawn = paintBlocked(root, index.blocked, moving, dayGrid);
    return () => {
      for (const el of drawn) el.remove();
    };
  }, [index, byId, dayGrid]);

  const onDatesSet = (arg: DatesSetArg) => {
    const from = isoDate(arg.start);
    const to = isoDate(new Date(arg.end.getTime() - 86400000));
    setRange((r) => (r && r.from === from && r.to === to && r.type === arg.view.type ? r : { from, to, type: arg.view.type }));
    const nextView = VIEW_OF[arg.view.type] ?? "week";
    const nextDate = isoDate(arg.view.currentStart);
    if (search.get("view") !== nextView || search.get("date") !== nextDate) {
      const next = new URLSearchParams(search);
      next.set("view", nextView);
      next.set("date", nextDate);
      setSearch(next, { replace: true });
    }
  };

  const onMount = (arg: EventMountArg) => {
    const el = arg.el;
    if (arg.event.display === "background") {
      const reason = arg.event.extendedProps.reason as string | undefined;
      if (reason) el.title = reason;
      return;
    }
    const more = arg.event.extendedProps.more as DayOverflow | undefined;
    if (more) {
      el.setAttribute("aria-label", `${more.count} more sessions on ${weekday(more.date)} ${more.date}: open that week`);
      return;
    }
    const s = arg.event.extendedProps.session as BoardSession;
    const held = arg.event.extendedProps.held as string | undefined;
    el.dataset.sessionId = s.id;
    el.setAttribute(
      "aria-label",
      `${s.unit.code} ${s.unit.name}, ${s.blockGroup.code}, ${s.teacher?.name ?? "unassigned"}, ${s.room ? `room ${s.room}` : "no room"}, ${weekday(s.actualDate)} ${s.actualDate} ${s.startTime} to ${s.endTime}${held ? `, held by ${held}` : ""}. Arrow keys move it, Enter saves.`,
    );
    el.addEventListener("keydown", (e) => keyRef.current(s.id, e));
    if (focusRef.current === s.id) el.focus();
  };

  const onClick = (arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    const more = arg.event.extendedProps.more as DayOverflow | undefined;
    if (more) {
      calendarRef.current?.getApi().changeView(FC_VIEW.week, more.date);
      return;
    }
    setSelectedId(arg.event.id);
  };

  // FullCalendar re-renders every card when any of its props changes: its callbacks are stable (they call
  // the latest handlers through a ref) and the element is rebuilt only when an event source changes.
  const handlers = useRef({ onDatesSet, onMount, onClick, onDragStart, onDragStop, onDrop, startActivity, endActivity });
  handlers.current = { onDatesSet, onMount, onClick, onDragStart, onDragStop, onDrop, startActivity, endActivity };
  const initial = useRef({ view: FC_VIEW[view], date: initialDate });
  const calendar = useMemo(
    () => (
      <FullCalendar
        ref={calendarRef}
        plugins={PLUGINS}
        initialView={initial.current.view}
        initialDate={initial.current.date}
        views={VIEWS}
        headerToolbar={TOOLBAR}
        buttonIcons={false}
        buttonText={BUTTON_TEXT}
        locale={enAu}
        firstDay={1}
        allDaySlot={false}
        slotMinTime={hours.min}
        slotMaxTime={hours.max}
        slotDuration={`00:${SLOT_MINUTES}:00`}
        slotLabelFormat={TIME_FORMAT}
        displayEventTime={false}
        height="auto"
        editable
        eventInteractive
        eventDisplay="block"
        dayMaxEvents={false}
        eventSources={sources}
        datesSet={(arg) => handlers.current.onDatesSet(arg)}
        eventContent={cardContent}
        eventDidMount={(arg) => handlers.current.onMount(arg)}
        eventClick={(arg) => handlers.current.onClick(arg)}
        eventDragStart={(arg) => handlers.current.onDragStart(arg)}
        eventDragStop={(arg) => handlers.current.onDragStop(arg)}
        eventDrop={(arg) => handlers.current.onDrop(arg)}
        eventResizeStart={(arg) => handlers.current.startActivity(arg.event.id)}
        eventResizeStop={() => handlers.current.endActivity()}
        eventResize={(arg) => handlers.current.onDrop(arg)}
      />
    ),
    [sources, hours.min, hours.max],
  );

  const setColour = (value: string) => {
    setColourBy(value as ColourBy);
    localStorage.setItem(COLOUR_KEY, value);
  };

  const draggingSession = draggingId ? byId.get(draggingId) : undefined;
  const indexed = index ? byId.get(index.sessionId) : undefined;
  const candidateName = candidate ? teachers.data?.find((t) => t.id === candidate)?.name : undefined;
  const shadingFor = !indexed
    ? ""
    : candidateName && index?.teacherId === candidate
      ? `Shaded: where ${sessionLabel(indexed)} would clash if ${candidateName} taught it.`
      : `Shaded: where ${sessionLabel(indexed)} would clash.`;

  return (
    <div className="bp-board">
      <PageHeader
        title={board.data?.title ? `Planner: ${board.data.title}` : "Planner"}
        subtitle="Drag a session to move it, drag its end to change its times, or drop it on a teacher to assign it."
        actions={
          <Group gap="sm" className="bp-noprint">
            <SegmentedControl
              aria-label="Colour sessions by"
              size="xs"
              value={colourBy}
              onChange={setColour}
              data={[
                { value: "unit", label: "Colour by unit" },
                { value: "teacher", label: "By teacher" },
                { value: "status", label: "By status" },
              ]}
            />
            <Button variant="light" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
              Print
            </Button>
          </Group>
        }
      />
      <Group gap="xs" mb="xs" className="bp-noprint" data-testid="board-presence" aria-live="polite">
        {viewers.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody else has this board open.
          </Text>
        ) : (
          viewers.map((v) => {
            const s = v.movingSessionId ? byId.get(v.movingSessionId) : undefined;
            return (
              <Badge key={v.userId} variant="light" color={v.movingSessionId ? "orange" : "blue"} size="lg" tt="none">
                {v.movingSessionId ? `${v.name} is moving ${s ? sessionLabel(s) : "a session"}` : `${v.name} is viewing`}
              </Badge>
            );
          })
        )}
      </Group>
      <Group gap="md" mb="xs" className="bp-legend" aria-label="Shading">
        <Text size="xs">
          <span className="bp-swatch bp-shade-holiday" /> Holiday
        </Text>
        <Text size="xs">
          <span className="bp-swatch bp-shade-break" /> Term break
        </Text>
        <Text size="xs">
          <span className="bp-swatch bp-shade-leave" /> Leave
        </Text>
        <Text size="xs">
          <span className="bp-swatch bp-shade-unavailable" /> Unavailable
        </Text>
        <Text size="xs" className="bp-noprint">
          <span className="bp-swatch bp-blocked" /> Clash while dragging
        </Text>
      </Group>
      <Text size="xs" mb="xs" className="bp-noprint" data-testid="board-shading-for" aria-live="polite">
        {shadingFor}
      </Text>
      {board.isError ? (
        <Alert color="red" title="The board could not be loaded" mb="sm">
          {board.error instanceof Error ? board.error.message : "Try again."}
        </Alert>
      ) : null}
      {board.isSuccess && !board.isPlaceholderData && sessions.length === 0 ? (
        <Text size="sm" mb="xs" data-testid="board-empty" aria-live="polite">
          No sessions in this {VIEW_OF[range?.type ?? ""] ?? "week"}: use the arrows or Today to move to a period with classes.
        </Text>
      ) : null}
      <div className="bp-layout">
        <div
          ref={calendarBox}
          className="bp-calendar"
          data-testid="board-calendar"
          data-loaded={board.isSuccess && !board.isPlaceholderData ? "true" : "false"}
          data-cards={sessionEvents.length}
        >
          {calendar}
        </div>
        <Card withBorder className="bp-side bp-noprint" padding="sm" aria-label="Teachers">
          <Stack gap="xs">
            <Title order={2} size="h5">
              Teachers
            </Title>
            {!selected ? (
              <Text size="sm" c="dimmed">
                Select or drag a session to see the teachers qualified for it.
              </Text>
            ) : (
              <>
                <Text size="sm">
                  For <strong>{sessionLabel(selected)}</strong> ({selected.blockGroup.code}, {selected.teacher?.name ?? "unassigned"})
                </Text>
                {teachers.isLoading ? <Text size="sm">Loading teachers…</Text> : null}
                {teachers.data?.length === 0 ? <Text size="sm">No active teacher holds {selected.unit.code}.</Text> : null}
                {teachers.data?.map((t) => (
                  <Card
                    key={t.id}
                    withBorder
                    padding="xs"
                    data-teacher-drop={t.id}
                    data-testid={`teacher-drop-${t.name}`}
                    className={[draggingSession ? "bp-drop-target" : "", candidate === t.id ? "bp-candidate" : ""].filter(Boolean).join(" ") || undefined}
                    onMouseEnter={() => pointTeacher(t.id)}
                    onMouseLeave={() => pointTeacher(null)}
                    onFocus={() => pointTeacher(t.id)}
                    onBlur={() => pointTeacher(null)}
                  >
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Stack gap={0}>
                        <Text size="sm" fw={600}>
                          {t.name}
                        </Text>
                        <Text size="xs">
                          {t.weekHours} h of {t.maxWeeklyHours} h that week
                        </Text>
                        {t.clash ? (
                          <Text size="xs" c="red.8">
                            {t.clash}
                          </Text>
                        ) : null}
                      </Stack>
                      <Button
                        size="compact-xs"
                        variant="light"
                        disabled={selected.teacher?.id === t.id}
                        onClick={() => assign(t.id)}
                        aria-label={`Assign ${sessionLabel(selected)} to ${t.name}`}
                      >
                        Assign
                      </Button>
                    </Group>
                  </Card>
                ))}
              </>
            )}
          </Stack>
        </Card>
      </div>
      <div className="bp-sr-only" role="status" aria-live="polite" data-testid="board-status">
        {status}
      </div>
    </div>
  );
}
