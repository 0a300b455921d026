/**
 * Session-wide effects (docs/behaviour/screens.md §6; docs/behaviour/errors.md §9): signing out locally (user cleared, all cached data dropped,
 * socket closed) and the 401 handler (any 401 outside /api/auth sends the user to /auth after ~0.5 s).
 *
 * Single sign-on (ADR 0022): a session made by it ends after at most 12 hours. When this browser signed in
 * with it (lib/ssoSession.ts), the end of the session sends the page to the provider's silent
 * re-check instead of /auth (at most once a minute), which comes back to the same page signed in again.
 */
import { onUnauthorized } from "@/lib/api";
import { queryClient } from "@/lib/queryClient";
import { roots } from "@/lib/queryKeys";
import { currentUserQueryOptions } from "@/lib/auth";
import { isUnreachable, RETRY_MS } from "@/lib/reachability";
import { closeSocket, onSessionEnded, onSessionLost } from "@/lib/socket";
import { startSilentRecheck } from "@/lib/ssoSession";

export const UNAUTHORIZED_REDIRECT_MS = 500;

/** Drops the cached user and all cached data and closes the live-update socket. */
export function clearSession() {
  closeSocket();
  queryClient.cancelQueries();
  queryClient.clear();
  queryClient.setQueryData(roots.user, null);
}

let pending: number | null = null;

/**
 * The session is over: to /auth (unless already in the sign-in area), or, with `silent`, to the single
 * sign-on silent re-check when this browser signed in with it and has not tried one in the last minute.
 */
export function goToSignIn(navigate: (to: string) => void, { silent = true }: { silent?: boolean } = {}) {
  if (location.pathname.startsWith("/auth")) return;
  if (silent && startSilentRecheck(`${location.pathname}${location.search}`)) return;
  navigate("/auth");
}

/** Installs the 401 and lost-socket handlers; `navigate` is the router's navigate (kept outside React). */
export function installUnauthorizedHandler(navigate: (to: string) => void) {
  // The server ended the socket because this browser's session ended (logout here or elsewhere in this
  // browser, password changed elsewhere, deactivated, expired): straight to sign-in.
  // Only an expired session is re-checked silently: a logout, a password change or a deactivation is not
  // undone by the identity provider.
  onSessionEnded((reason) => {
    clearSession();
    goToSignIn(navigate, { silent: reason === "expired" });
  });
  // The socket was refused or closed by the server: signed out elsewhere (go to sign-in) or not (reconnect).
  onSessionLost(async (s) => {
    let user = null;
    try {
      user = await queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 });
    } catch (error) {
      // No answer or a 5xx is an outage, not a sign-out (ADR 0018): try the socket again later.
      if (isUnreachable(error)) {
        window.setTimeout(() => s.connect(), RETRY_MS);
        return;
      }
      user = null;
    }
    if (!user) {
      clearSession();
      goToSignIn(navigate);
    } else {
      window.setTimeout(() => s.connect(), 500);
    }
  });
  onUnauthorized(() => {
    if (pending !== null) return;
    pending = window.setTimeout(() => {
      pending = null;
      clearSession();
      goToSignIn(navigate);
    }, UNAUTHORIZED_REDIRECT_MS);
  });
}
