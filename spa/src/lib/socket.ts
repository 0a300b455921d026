/**
 * The live-update client (decisions.md §7): one Socket.IO connection for the app, opened once the user is
 * signed in and before the first data fetch (RequireAuth calls `ensureSocket()` while rendering).
 *
 * - Event `change` {entity, action, ids, seq, actorId, origin, at}: invalidate the roots of
 *   `entityInvalidates[entity]`; when seq is not last+1 (after the first event) invalidate everything,
 *   because the channel layer may have dropped an event.
 * - Every reconnect invalidates everything (a view that was offline catches up). The first connect
 *   invalidates what was already fetched before the socket joined (so a change in that gap is not missed).
 * - `useLiveStatus()` says "connected" or "offline"; views poll only while offline.
 * - Event `presence` {viewers} is handed to lib/presence.ts.
 */
import type { QueryClient } from "@tanstack/react-query";
import { io, type Socket } from "socket.io-client";
import { useSyncExternalStore } from "react";
import { entityInvalidates, roots } from "./queryKeys";

export interface ChangeEvent {
  entity: string;
  action: string;
  ids: string[];
  seq: number;
  actorId?: string | null;
  origin?: string | null;
  at?: string;
}

export type LiveStatus = "connected" | "offline";

/**
 * The change-event rules as a pure state machine, so they can be tested without a socket.
 * `onChange` returns what it invalidated: "all" or the list of roots.
 */
export function createChangeHandler(queryClient: QueryClient) {
  let lastSeq: number | null = null;
  const invalidateAll = () => {
    void queryClient.invalidateQueries();
    return "all" as const;
  };
  return {
    onChange(event: ChangeEvent): "all" | readonly (readonly string[])[] {
      const seq = typeof event?.seq === "number" ? event.seq : null;
      const gap = lastSeq !== null && seq !== null && seq !== lastSeq + 1;
      if (seq !== null) lastSeq = seq;
      const targets = entityInvalidates[event?.entity];
      if (gap || !targets) return invalidateAll();
      for (const key of targets) void queryClient.invalidateQueries({ queryKey: key });
      return targets;
    },
    /** A (re)connection: the seq baseline restarts; `first` only refreshes what was already loaded. */
    onConnect(first: boolean) {
      lastSeq = null;
      if (!first) return invalidateAll();
      void queryClient.invalidateQueries({
        predicate: (query) =>
          query.state.dataUpdatedAt > 0 && JSON.stringify(query.queryKey) !== JSON.stringify(roots.user),
      });
      return "loaded" as const;
    },
  };
}

let socket: Socket | null = null;
let sessionLostHandler: ((s: Socket) => void) | null = null;

/** Called when the server refuses or ends the socket's session (app/session.ts decides what to do). */
export function onSessionLost(handler: (s: Socket) => void) {
  sessionLostHandler = handler;
}
let status: LiveStatus = "offline";
const statusListeners = new Set<() => void>();
const presenceListeners = new Set<(viewers: unknown) => void>();
const connectListeners = new Set<() => void>();

function setStatus(next: LiveStatus) {
  if (status === next) return;
  status = next;
  statusListeners.forEach((listener) => listener());
}

/** Opens the app's socket if it is not open yet (idempotent, safe to call during render). */
export function ensureSocket(queryClient: QueryClient): Socket {
  if (socket) return socket;
  const handler = createChangeHandler(queryClient);
  let connectedBefore = false;
  const s = io({ path: "/socket.io/", transports: ["websocket"], withCredentials: true });
  socket = s;
  s.on("connect", () => {
    handler.onConnect(!connectedBefore);
    connectedBefore = true;
    setStatus("connected");
    connectListeners.forEach((listener) => listener());
  });
  s.on("disconnect", (reason) => {
    setStatus("offline");
    // The server ended the session (logout elsewhere, deactivation): socket.io-client does not reconnect
    // by itself; the app checks the session and either signs out or reconnects.
    if (reason === "io server disconnect" && socket === s) sessionLostHandler?.(s);
  });
  s.on("connect_error", (error: Error) => {
    setStatus("offline");
    if (error?.message === "unauthorized" && socket === s) sessionLostHandler?.(s);
  });
  s.on("change", (event: ChangeEvent) => handler.onChange(event));
  s.on("presence", (data: { viewers?: unknown }) => presenceListeners.forEach((listener) => listener(data?.viewers)));
  return s;
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
