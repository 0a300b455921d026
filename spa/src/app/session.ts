/**
 * Session-wide effects (platform.md §4, §8): signing out locally (user cleared, all cached data dropped,
 * socket closed) and the 401 handler (any 401 outside /api/auth sends the user to /auth after ~0.5 s).
 */
import { onUnauthorized } from "../lib/api";
import { queryClient } from "../lib/queryClient";
import { roots } from "../lib/queryKeys";
import { currentUserQueryOptions } from "../lib/auth";
import { closeSocket, onSessionEnded, onSessionLost } from "../lib/socket";

export const UNAUTHORIZED_REDIRECT_MS = 500;

/** Drops the cached user and all cached data and closes the live-update socket. */
export function clearSession() {
  closeSocket();
  queryClient.cancelQueries();
  queryClient.clear();
  queryClient.setQueryData(roots.user, null);
}

let pending: number | null = null;

/** Installs the 401 and lost-socket handlers; `navigate` is the router's navigate (kept outside React). */
export function installUnauthorizedHandler(navigate: (to: string) => void) {
  // The server ended the socket because this browser's session ended (logout here or elsewhere in this
  // browser, password changed elsewhere, deactivated, expired): straight to sign-in.
  onSessionEnded(() => {
    clearSession();
    if (!location.pathname.startsWith("/auth")) navigate("/auth");
  });
  // The socket was refused or closed by the server: signed out elsewhere (go to sign-in) or not (reconnect).
  onSessionLost(async (s) => {
    let user = null;
    try {
      user = await queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 });
    } catch {
      user = null;
    }
    if (!user) {
      clearSession();
      if (!location.pathname.startsWith("/auth")) navigate("/auth");
    } else {
      window.setTimeout(() => s.connect(), 500);
    }
  });
  onUnauthorized(() => {
    if (pending !== null) return;
    pending = window.setTimeout(() => {
      pending = null;
      clearSession();
      if (!location.pathname.startsWith("/auth")) navigate("/auth");
    }, UNAUTHORIZED_REDIRECT_MS);
  });
}
