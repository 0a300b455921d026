import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/**
 * docs/behaviour/screens.md §6: cached data fresh for 5 minutes, no refetch on window focus; mutations never retry.
 * Failing queries retry up to 3 times, quickly (0.3, 0.6, 1.2 s: a server error shows its Retry after
 * about 2 s, not 7-10 s of skeleton), and never on a 4xx: a 404 or 400 will not change by asking again
 * (ADR 0016; the original retried everything but 401). Offline, react-query waits for the
 * connection instead of failing.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60 * 1000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
        return failureCount < 3;
      },
      retryDelay: (attempt) => 300 * 2 ** attempt,
    },
    mutations: { retry: false },
  },
});
