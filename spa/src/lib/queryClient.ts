import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/**
 * platform.md §9: cached data fresh for 5 minutes, no refetch on window focus; failing queries retry up
 * to 3 times except on 401 (the current user is then cleared); mutations never retry.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60 * 1000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404)) return false;
        return failureCount < 3;
      },
    },
    mutations: { retry: false },
  },
});
