/**
 * Session-wide effects (platform.md §4, §8): signing out locally (user cleared, all cached data dropped,
 * socket closed) and the 401 handler (any 401 outside /api/auth sends the user to /auth after ~0.5 s).
 */
import { onUnauthorized } from "../lib/api";
import { queryClient } from "../lib/queryClient";
import { roots } from "../lib/queryKeys";
import { closeSocket } from "../lib/socket";

export const UNAUTHORIZED_REDIRECT_MS = 500;

/** Drops the cached user and all cached data and closes the live-update socket. */
export function clearSession() {
  closeSocket();
  queryClient.cancelQueries();
  queryClient.clear();
  queryClient.setQueryData(roots.user, null);
}

let pending: number | null = null;

/** Installs the 401 handler; `navigate` is the router's navigate (kept outside React). */
export function installUnauthorizedHandler(navigate: (to: string) => void) {
  onUnauthorized(() => {
    if (pending !== null) return;
    pending = window.setTimeout(() => {
      pending = null;
      clearSession();
      if (!location.pathname.startsWith("/auth")) navigate("/auth");
    }, UNAUTHORIZED_REDIRECT_MS);
  });
}
