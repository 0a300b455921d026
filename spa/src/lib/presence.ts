/**
 * Presence (ADR 0003; realtime/presence.py): on every route change the app emits `presence`
 * {path: location.pathname} (and again after each reconnect); the server broadcasts `presence`
 * {viewers: [{userId, name, initials, path}]} to the organization. `usePresence(path)` returns the other
 * people (not the signed-in user, one entry per user) looking at that path.
 */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import { useCurrentUser } from "./auth";
import { getSocket, onPresenceEvent, onSocketConnect } from "./socket";

export interface Viewer {
  userId: string;
  name: string;
  initials: string;
  path: string;
}

let viewers: Viewer[] = [];
const listeners = new Set<() => void>();
let currentPath: string | null = null;
let wired = false;

function isViewer(value: unknown): value is Viewer {
  const v = value as Viewer;
  return !!v && typeof v.userId === "string" && typeof v.path === "string";
}

function wire() {
  if (wired) return;
  wired = true;
  onPresenceEvent((list) => {
    viewers = Array.isArray(list) ? list.filter(isViewer) : [];
    for (const listener of listeners) listener();
  });
  onSocketConnect(() => {
    if (currentPath !== null) getSocket()?.emit("presence", { path: currentPath });
  });
}

/** Tells the server which path this tab shows (AppLayout calls it on every route change). */
export function reportPresence(path: string | null) {
  wire();
  currentPath = path;
  const socket = getSocket();
  if (socket?.connected) socket.emit("presence", { path });
}

/** For tests: replace the viewer list. */
export function setViewersForTest(list: Viewer[]) {
  viewers = list;
  for (const listener of listeners) listener();
}

/** Every viewer of the organization (the planner board reads the ones under its path). */
export function useViewers(): Viewer[] {
  wire();
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => viewers,
    () => viewers,
  );
}

/** The other users viewing `path` (deduplicated by user, the signed-in user left out). */
export function usePresence(path: string): Viewer[] {
  const all = useViewers();
  const { user } = useCurrentUser();
  const me = user?.id;
  return useMemo(() => {
    const seen = new Set<string>();
    const out: Viewer[] = [];
    for (const viewer of all) {
      if (viewer.path !== path || viewer.userId === me || seen.has(viewer.userId)) continue;
      seen.add(viewer.userId);
      out.push(viewer);
    }
    return out;
  }, [all, path, me]);
}

/** Emits the current route as presence; mounted once in the shell. */
export function usePresenceReporter() {
  const location = useLocation();
  useEffect(() => {
    reportPresence(location.pathname);
  }, [location.pathname]);
  useEffect(() => () => reportPresence(null), []);
}
