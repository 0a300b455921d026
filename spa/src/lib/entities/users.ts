/** The organization's users (GET /api/admin/users, administrators only): the organization screen and the activity filter. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type OrgUser = components["schemas"]["UserOut"];

export async function fetchAdminUsers(): Promise<OrgUser[]> {
  const { data } = await client.GET("/api/admin/users");
  return data!;
}
export const adminUsersQueryOptions = () => queryOptions({ queryKey: [...roots.adminUsers], queryFn: fetchAdminUsers });
export function useAdminUsers() {
  return useQuery(adminUsersQueryOptions());
}
