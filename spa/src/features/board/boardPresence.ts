/**
 * Who else has this board open and what they do (docs/adr/0026-planner-board.md), over the shared
 * presence channel (lib/presence.ts, realtime/presence.py): a board reports its own path
 * (`/planner/<scope>/<id>`), and while a session is dragged or moved by keyboard the path of that
 * activity, `/planner/<scope>/<id>/moving/<sessionId>`; dropping reports the board's path again. The
 * viewers under the board's path are the other people on it; one with a `moving` path holds that session.
 */
import { useMemo } from "react";
import { useCurrentUser } from "@/lib/auth";
import { reportPresence, useViewers } from "@/lib/presence";

export interface BoardViewer {
  userId: string;
  name: string;
  initials: string;
  movingSessionId: string | null;
}

/** Say that this tab moves `sessionId` on the board at `base` (null: just looking). */
export function reportBoardActivity(base: string, sessionId: string | null) {
  reportPresence(sessionId ? `${base}/moving/${sessionId}` : base);
}

/** The other users on the board at `base`, one entry per user (a moving entry wins). */
export function useBoardViewers(base: string): BoardViewer[] {
  const all = useViewers();
  const { user } = useCurrentUser();
  return useMemo(() => {
    const out = new Map<string, BoardViewer>();
    for (const v of all) {
      if (v.userId === user?.id) continue;
      if (v.path !== base && !v.path.startsWith(`${base}/moving/`)) continue;
      const moving = v.path.startsWith(`${base}/moving/`) ? v.path.slice(`${base}/moving/`.length) : null;
      const known = out.get(v.userId);
      if (!known || (moving && !known.movingSessionId)) out.set(v.userId, { userId: v.userId, name: v.name, initials: v.initials, movingSessionId: moving });
    }
    return [...out.values()];
  }, [all, base, user?.id]);
}
