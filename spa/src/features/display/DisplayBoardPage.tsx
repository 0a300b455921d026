/**
 * Wall display board (/display/:token): today's sessions of a display link's scope, grouped by
 * room or block group, with what is on now and next, a clock and the organization's name. Read-only, no
 * pointer needed, large high-contrast type for a TV (1920x1080) or a portrait screen (1080x1920).
 *
 * Live: a socket authenticated by the token (auth.displayToken); a `change` event that concerns the board's
 * day (`concernsBoard`) and a `seq` notice refetch the board after a random 0..0.4 s, at most once a second,
 * and a reconnect after a random 0..0.5 s (ADR 0031). A dropped connection shows 'Reconnecting…'. A revoked link (410, or the server
 * closing the socket) shows that the link was revoked. The date rolls over at midnight in the
 * organization's timezone: the board refetches when the local date differs from the board's date.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useParams } from "react-router";
import { io } from "socket.io-client";
import { ApiError, client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { createSpreadRefetch, DISPLAY_SPREAD_MS, type LiveEvent, SPREAD_MS, touchedDates } from "@/lib/liveTargets";
import { roots } from "@/lib/queryKeys";
import classes from "./DisplayBoard.module.css";

type Board = components["schemas"]["BoardOut"];
type BoardSession = components["schemas"]["BoardSessionOut"];

const boardKey = (token: string) => [...roots.displayLinks, "board", token] as const;

async function fetchBoard(token: string): Promise<Board> {
  const { data } = await client.GET("/api/display/{token}", { params: { path: { token } } });
  return data!;
}

/** Wall-clock parts (date YYYY-MM-DD, minutes since midnight, display time) in a timezone. */
export function localNow(timezone: string, at: Date = new Date()) {
  const parts = new Intl.DateTimeFormat("en-AU", {
    timeZone: timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    minutes: Number(get("hour")) * 60 + Number(get("minute")),
    clock: `${get("hour")}:${get("minute")}`,
  };
}

const toMinutes = (hms: string) => {
  const [h, m] = hms.split(":").map(Number);
  return h * 60 + m;
};

function formatTime(hms: string) {
  const [h, m] = hms.split(":").map(Number);
  const suffix = h >= 12 ? "pm" : "am";
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, "0")} ${suffix}`;
}

export function groupSessions(board: Board) {
  const groups = new Map<string, BoardSession[]>();
  for (const s of board.sessions) {
    const key = board.groupBy === "room" ? s.room.trim() || "TBA" : `${s.blockGroup.code}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export function nowAndNext(sessions: BoardSession[], minutes: number) {
  const live = sessions.filter((s) => s.status !== "cancelled");
  const now = live.find((s) => toMinutes(s.startTime) <= minutes && minutes < toMinutes(s.endTime)) ?? null;
  const next = live.find((s) => toMinutes(s.startTime) > minutes) ?? null;
  return { now, next };
}

/**
 * Whether a change event concerns a board showing `boardDate` (null: not loaded yet): a session change
 * only when a date it touched, before or after the write, is the board's day (ADR 0025); anything else
 * the server sends a display (holidays, block groups, its own link) always.
 */
export function concernsBoard(event: LiveEvent | undefined, boardDate: string | null): boolean {
  if (!event || boardDate === null) return true;
  const dates = touchedDates(event);
  return dates === null || dates.includes(boardDate);
}

function useDisplaySocket(token: string, onChange: () => void, boardDate: string | null) {
  const [state, setState] = useState<"connecting" | "live" | "reconnecting" | "revoked">("connecting");
  // The latest callback, so that a new one does not reconnect the socket.
  const changed = useRef(onChange);
  changed.current = onChange;
  const shownDate = useRef(boardDate);
  shownDate.current = boardDate;
  useEffect(() => {
    const onChange = () => changed.current();
    // Every display of the organization gets an event in the same instant: each reads its board after a
    // random 0..0.4 s, at most once a second (ADR 0031), so twenty boards do not ask the server at once.
    const readAgain = createSpreadRefetch(onChange, { spreadMs: DISPLAY_SPREAD_MS });
    // After a reconnect (every display at once when a server restarts) a random 0..0.5 s: a change made
    // while it was offline still shows within 2 s of the server answering again.
    const catchUp = createSpreadRefetch(onChange, { spreadMs: SPREAD_MS });
    const socket = io({ path: "/socket.io/", transports: ["websocket"], auth: { displayToken: token } });
    let seen = false;
    socket.on("connect", () => {
      setState("live");
      if (seen) catchUp(); // catch up after a reconnect
      seen = true;
    });
    socket.on("change", (event: LiveEvent) => {
      if (concernsBoard(event, shownDate.current)) readAgain();
    });
    socket.on("seq", () => readAgain()); // events were lost on the way (realtime/watch.py): read the board again
    socket.on("disconnect", (reason) => {
      // The server closing the socket is a revocation; anything else reconnects with back-off.
      if (reason === "io server disconnect") {
        setState("revoked");
        onChange();
      } else {
        setState("reconnecting");
      }
    });
    socket.on("connect_error", () => {
      if (!socket.active) {
        setState("revoked");
        onChange();
      } else setState("reconnecting");
    });
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [token]);
  return state;
}

export default function DisplayBoardPage() {
  const { token = "" } = useParams();
  const queryClient = useQueryClient();
  const board = useQuery({
    queryKey: boardKey(token),
    queryFn: () => fetchBoard(token),
    retry: (count, error) => !(error instanceof ApiError && [404, 410].includes(error.status)) && count < 5,
    retryDelay: (attempt) => Math.min(30_000, 1000 * 2 ** attempt),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const connection = useDisplaySocket(token, () => queryClient.invalidateQueries({ queryKey: boardKey(token) }), board.data?.date ?? null);

  const timezone = board.data?.timezone ?? "Australia/Melbourne";
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setTick(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  const local = useMemo(() => localNow(timezone, new Date(tick)), [timezone, tick]);

  // Midnight rollover in the organization's timezone.
  useEffect(() => {
    if (board.data && local.date !== board.data.date) {
      queryClient.invalidateQueries({ queryKey: boardKey(token) });
    }
  }, [board.data, local.date, queryClient, token]);

  const revoked = board.error instanceof ApiError && board.error.status === 410;
  const missing = board.error instanceof ApiError && board.error.status === 404;

  if (revoked) {
    return (
      <main className={classes.board} data-testid="display-revoked">
        <div className={classes.message}>
          <h1>This display link has been revoked</h1>
          <p>Ask an administrator for a new display link.</p>
        </div>
      </main>
    );
  }
  if (missing) {
    return (
      <main className={classes.board}>
        <div className={classes.message}>
          <h1>Display link not found</h1>
        </div>
      </main>
    );
  }
  if (!board.data) {
    return (
      <main className={classes.board}>
        <div className={classes.message}>
          <h1>Loading...</h1>
        </div>
      </main>
    );
  }
  const data = board.data;
  const groups = groupSessions(data);
  const dateLabel = new Intl.DateTimeFormat("en-AU", {
    timeZone: timezone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(new Date(tick));

  return (
    <main className={classes.board} aria-label="Timetable display">
      <header className={classes.header}>
        <div>
          <div className={classes.org}>{data.organizationName}</div>
          <div className={classes.scope}>
            {data.name}
            {data.campus ? ` · ${data.campus.name}` : ""}
          </div>
        </div>
        <div className={classes.clockBox}>
          <div className={classes.clock} data-testid="display-clock">
            {local.clock}
          </div>
          <div className={classes.date}>{dateLabel}</div>
        </div>
      </header>
      {connection === "reconnecting" || connection === "connecting" ? (
        <div className={classes.banner} role="status" data-testid="display-reconnecting">
          {connection === "connecting" ? "Connecting…" : "Reconnecting… the board may be out of date"}
        </div>
      ) : null}
      {groups.length === 0 ? (
        <div className={classes.message}>
          <h2>No classes scheduled today</h2>
        </div>
      ) : (
        <section className={classes.grid}>
          {groups.map(([key, sessions]) => {
            const { now, next } = nowAndNext(sessions, local.minutes);
            return (
              <article key={key} className={classes.card} data-testid="display-group">
                <h2 className={classes.cardTitle}>{data.groupBy === "room" ? `Room ${key}` : key}</h2>
                {data.groupBy === "room" && (sessions[0].roomName || sessions[0].roomCapacity) ? (
                  <div className={classes.roomFacts} data-testid="room-facts">
                    {[sessions[0].roomName, sessions[0].roomCapacity ? `${sessions[0].roomCapacity} seats` : null].filter(Boolean).join(" · ")}
                  </div>
                ) : null}
                <div className={classes.nowNext}>
                  <span className={classes.nowLabel}>Now</span> {now ? `${now.unit.code} · ${now.blockGroup.code}` : "Free"}
                  <span className={classes.nextLabel}>Next</span> {next ? `${formatTime(next.startTime)} ${next.unit.code}` : "—"}
                </div>
                <ul className={classes.sessions}>
                  {sessions.map((s) => {
                    const cancelled = s.status === "cancelled";
                    const isNow = now?.id === s.id;
                    return (
                      <li key={s.id} className={isNow ? classes.current : undefined} data-testid="display-session">
                        <span className={cancelled ? classes.struck : classes.time}>
                          {formatTime(s.startTime)}–{formatTime(s.endTime)}
                        </span>
                        <span className={classes.what}>{cancelled ? "Holiday/Term Break" : `${s.unit.code} ${s.unit.name}`}</span>
                        <span className={classes.who}>
                          {data.groupBy === "room" ? s.blockGroup.code : cancelled ? "N/A" : s.room || "TBA"} · {s.teacherName ?? "Unassigned"}
                        </span>
                      </li>
                    );
                  })}
                </ul>
              </article>
            );
          })}
        </section>
      )}
    </main>
  );
}
