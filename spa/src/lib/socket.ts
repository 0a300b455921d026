/**
 * The live-update client (docs/behaviour/live-events.md §1): one Socket.IO connection for the app, opened once the user is
 * signed in and before the first data fetch (RequireAuth calls `ensureSocket()` while rendering).
 *
 * - Event `change` {entity, action, ids, seq, actorId, origin, at}: invalidate the roots of
 *   `entityInvalidates[entity]`, in seq order; a seq still missing after the reorder window invalidates
 *   everything, because the channel layer may have dropped an event.
 * - Events pass a 300 ms reorder window (lib/eventOrder.ts); only a gap still open after it refetches all.
 * - `session_ended` {reason} before a server disconnect: the session is over, go to sign-in (no retry).
 * - Reconnects retry after 250 ms..1 s, and at once on the browser's `online` event.
 * - Every reconnect invalidates everything (a view that was offline catches up). The first connect
 *   invalidates what was already fetched before the socket joined (so a change in that gap is not missed).
 * - Event `seq` {seq} (realtime/watch.py): events up to it were lost on the way (a Redis restart, a full
 *   channel); behind it, everything shown is read again. On focus the client asks for it (`seq` with an
 *   acknowledgement) and reconnects at once when no answer comes within 2 s.
 * - `useLiveStatus()` says "connected" or "offline"; views poll only while offline.
 * - Event `presence` {viewers} is handed to lib/presence.ts.
 * - Event `access_changed` {role}: the user's role changed (ADR 0023): everything is refetched, the
 *   signed-in user and what the new role may see included.
 */
import type { QueryClient } from "@tanstack/react-query";
import { io, type Socket } from "socket.io-client";
import { useSyncExternalStore } from "react";
import { createEventSequencer, REORDER_WINDOW_MS } from "./eventOrder";
import type { components } from "./api-schema";
import { applyChange, createCoalescer, invalidateLive, SPREAD_MS } from "./liveTargets";
import { entityInvalidates, roots } from "./queryKeys";

/** Event `change`, declared once on the server (project/core/changes.py) and generated from the OpenAPI schema. */
export type ChangeEvent = components["schemas"]["ChangeEvent"];

/**
 * What arrives as `change`: an event; an admin-only change sent to a member as its seq only (ADR 0007);
 * or an event of a newer server whose entity or action this build does not know (it reads everything again).
 */
export type ReceivedChange =
  | (ChangeEvent & { hidden?: undefined })
  | (components["schemas"]["HiddenChangeEvent"] & { entity?: undefined })
  | (Omit<ChangeEvent, "entity" | "action"> & { entity: string; action: string; hidden?: undefined });

const knownEntity = (event: ReceivedChange): event is ChangeEvent => typeof event?.entity === "string" && Object.hasOwn(entityInvalidates, event.entity);

export type LiveStatus = "connected" | "offline";

/**
 * The change-event rules as a pure state machine, so they can be tested without a socket. Events pass
 * through the reorder window of lib/eventOrder.ts: in seq order each invalidates the roots of its entity;
 * a gap still open after 300 ms invalidates everything; aggregates are read again after a random
 * 0..`spreadMs` (`SPREAD_MS`, ADR 0031). `onChange` returns what it invalidated ("all" or
 * the list of roots), or "held" / "duplicate" for an event waiting for an earlier one or already applied.
 */
export function createChangeHandler(queryClient: QueryClient, windowMs: number = REORDER_WINDOW_MS, spreadMs: number = SPREAD_MS) {
  const invalidateAll = () => {
    void invalidateLive(queryClient);
    return "all" as const;
  };
  let applied: "all" | readonly (readonly string[])[] = "all";
  const coalescer = createCoalescer(queryClient, { spreadMs });
  const apply = (event: ReceivedChange) => {
    if (event?.hidden) {
      applied = []; // a change this user may not see (ADR 0007): it only keeps the seq order
      return;
    }
    if (!knownEntity(event)) {
      applied = invalidateAll();
      return;
    }
    const targets = entityInvalidates[event.entity];
    // Only what the change concerns: patched timetable rows, coalesced aggregates (lib/liveTargets.ts).
    void applyChange(queryClient, event, coalescer);
    applied = targets;
  };
  const sequencer = createEventSequencer<ReceivedChange>({ deliver: apply, onGap: invalidateAll, windowMs });
  return {
    onChange(event: ReceivedChange): "all" | "held" | "duplicate" | readonly (readonly string[])[] {
      const result = sequencer.push(event);
      return result === "delivered" ? applied : result;
    },
    /**
     * The organization's latest seq learnt without an event (the server's `seq` notice, or the answer to
     * asking on focus): behind it, everything shown is read again. Returns whether it was behind.
     */
    onSeq(seq: unknown): boolean {
      if (typeof seq !== "number") return false;
      const behind = sequencer.catchUp(seq);
      if (behind) invalidateAll();
      return behind;
    },
    /** A (re)connection: the seq baseline restarts; `first` only refreshes what was already loaded. */
    onConnect(first: boolean) {
      sequencer.reset();
      if (!first) return invalidateAll();
      // What was fetched, or is still being fetched, before the socket joined may miss a change made in
      // between: fetch it again now that changes reach this tab (an in-flight read is restarted).
      void invalidateLive(queryClient, {
        predicate: (query) =>
          (query.state.dataUpdatedAt > 0 || query.state.fetchStatus === "fetching") && JSON.stringify(query.queryKey) !== JSON.stringify(roots.user),
      });
      return "loaded" as const;
    },
    /** The user's role changed (`access_changed`, ADR 0023): everything, the signed-in user included. */
    onAccessChanged() {
      void queryClient.invalidateQueries();
      return "all" as const;
    },
  };
}

let socket: Socket | null = null;
let sessionLostHandler: ((s: Socket) => void) | null = null;
let sessionEndedHandler: ((reason: string) => void) | null = null;

/** Called when the server refuses or ends the socket without saying why (app/session.ts checks the session). */
export function onSessionLost(handler: (s: Socket) => void) {
  sessionLostHandler = handler;
}

/**
 * Called when the server ends the socket because its browser session ended: the event `session_ended`
 * {reason: "logout" | "password_changed" | "deactivated" | "expired"} precedes the disconnect (ADR 0007).
 */
export function onSessionEnded(handler: (reason: string) => void) {
  sessionEndedHandler = handler;
}

/**
 * Reconnection timing (live again within 2 s of the network returning): retries start after
 * 250 ms and never wait more than 1 s; the browser's `online` event reconnects at once.
 */
export const RECONNECT_OPTIONS = { reconnectionDelay: 250, reconnectionDelayMax: 1000, randomizationFactor: 0.3 } as const;
let status: LiveStatus = "offline";
const statusListeners = new Set<() => void>();
const presenceListeners = new Set<(viewers: unknown) => void>();
const connectListeners = new Set<() => void>();

function setStatus(next: LiveStatus) {
  if (status === next) return;
  status = next;
  for (const listener of statusListeners) listener();
}

/** Opens the app's socket if it is not open yet (idempotent, safe to call during render). */
export function ensureSocket(queryClient: QueryClient): Socket {
  if (socket) return socket;
  const handler = createChangeHandler(queryClient);
  let connectedBefore = false;
  const s = io({ path: "/socket.io/", transports: ["websocket"], withCredentials: true, ...RECONNECT_OPTIONS });
  socket = s;
  let endedReason: string | null = null;
  s.on("session_ended", (data: { reason?: string }) => {
    endedReason = typeof data?.reason === "string" ? data.reason : "ended";
  });
  if (typeof window !== "undefined") {
    // The network is back: do not wait for the next retry or a ping timeout of a dead websocket.
    const reconnectNow = () => {
      if (socket !== s) {
        window.removeEventListener("online", reconnectNow);
        return;
      }
      if (endedReason) return;
      s.disconnect();
      s.connect();
    };
    window.addEventListener("online", reconnectNow);
    window.addEventListener("offline", () => {
      if (socket === s) setStatus("offline");
    });
  }
  s.on("connect", () => {
    handler.onConnect(!connectedBefore);
    connectedBefore = true;
    setStatus("connected");
    for (const listener of connectListeners) listener();
  });
  s.on("disconnect", (reason) => {
    setStatus("offline");
    // The server ended the session (logout elsewhere, deactivation): socket.io-client does not reconnect
    // by itself; the app checks the session and either signs out or reconnects.
    if (reason === "io server disconnect" && socket === s) {
      if (endedReason) sessionEndedHandler?.(endedReason);
      else sessionLostHandler?.(s);
    }
  });
  s.on("connect_error", (error: Error) => {
    setStatus("offline");
    if (error?.message === "unauthorized" && socket === s) sessionLostHandler?.(s);
  });
  s.on("change", (event: ReceivedChange) => handler.onChange(event));
  s.on("access_changed", () => handler.onAccessChanged());
  // Events lost on the way (a Redis restart, a full channel) are announced by the server (realtime/watch.py).
  s.on("seq", (data: { seq?: unknown }) => handler.onSeq(data?.seq));
  if (typeof document !== "undefined") askSeqOnFocus(s, handler);
  s.on("presence", (data: { viewers?: unknown }) => {
    for (const listener of presenceListeners) listener(data?.viewers);
  });
  return s;
}

/** How long an answer to `seq` may take before the socket is taken for dead and reconnected. */
export const SEQ_ANSWER_MS = 2000;

/**
 * When the tab becomes visible or focused again (a laptop waking up, a tab brought back), ask the server
 * for the latest seq: behind it, re-read what is shown; no answer within `SEQ_ANSWER_MS` means the
 * websocket died unnoticed, so reconnect at once (the reconnect re-reads everything).
 */
function askSeqOnFocus(s: Socket, handler: ReturnType<typeof createChangeHandler>) {
  let asking = false;
  const ask = () => {
    if (socket !== s) {
      document.removeEventListener("visibilitychange", ask);
      window.removeEventListener("focus", ask);
      return;
    }
    if (asking || !s.connected || document.visibilityState === "hidden") return;
    asking = true;
    s.timeout(SEQ_ANSWER_MS).emit("seq", {}, (error: Error | null, answer?: { ok?: boolean; seq?: unknown }) => {
      asking = false;
      if (socket !== s) return;
      if (error) {
        s.disconnect();
        s.connect();
      } else if (answer?.ok) handler.onSeq(answer.seq);
    });
  };
  document.addEventListener("visibilitychange", ask);
  window.addEventListener("focus", ask);
}

/** Closes the socket (sign-out, 401). */
export function closeSocket() {
  const s = socket;
  socket = null;
  if (s) {
    s.removeAllListeners();
    s.disconnect();
  }
  setStatus("offline");
}

export function getSocket(): Socket | null {
  return socket;
}

export function getLiveStatus(): LiveStatus {
  return status;
}

/** "connected" while the socket is connected, else "offline". */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    () => status,
    () => "offline",
  );
}

/** Poll interval for a query that must stay fresh without the socket: `ms` while offline, else off. */
export function usePollWhileOffline(ms: number): number | false {
  return useLiveStatus() === "connected" ? false : ms;
}

export function onPresenceEvent(listener: (viewers: unknown) => void) {
  presenceListeners.add(listener);
  return () => presenceListeners.delete(listener);
}

export function onSocketConnect(listener: () => void) {
  connectListeners.add(listener);
  return () => connectListeners.delete(listener);
}
