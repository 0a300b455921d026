/**
 * The signed-in user (docs/behaviour/screens.md §6): GET /api/auth/user, cached 60 s, not refetched on focus, no retry;
 * a 401 means signed out (null).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, client } from "./api";
import type { components } from "./api-schema";
import { roots } from "./queryKeys";

/** The signed-in user as the server answers it (UserOut; `role` is "admin" or "user"). */
export type CurrentUser = components["schemas"]["UserOut"];

export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    const { data } = await client.GET("/api/auth/user");
    return data?.user ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const currentUserQueryOptions = queryOptions({
  queryKey: roots.user,
  queryFn: fetchCurrentUser,
  staleTime: 60 * 1000,
  refetchOnWindowFocus: false,
  retry: false,
});

export function useCurrentUser() {
  const query = useQuery(currentUserQueryOptions);
  const user = query.data ?? null;
  return { ...query, user, isAdmin: user?.role === "admin" };
}

export function displayName(user: Pick<CurrentUser, "firstName" | "lastName" | "email"> | null): string {
  if (!user) return "User";
  const full = `${user.firstName ?? ""} ${user.lastName ?? ""}`.trim();
  return full || user.email || "User";
}
