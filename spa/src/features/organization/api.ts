/**
 * Organization management calls (docs/behaviour/accounts.md §9): GET/PUT /api/organization (PUT sends If-Match with the
 * loaded updatedAt, docs/behaviour/concurrency.md §1), GET/POST /api/admin/users and DELETE /api/admin/users/{id} (deactivate).
 */
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import type { OrgUser } from "@/lib/entities/users";

export { adminUsersQueryOptions, fetchAdminUsers, type OrgUser, useAdminUsers } from "@/lib/entities/users";

type Schemas = components["schemas"];
export type Organization = Schemas["OrganizationOut"];

export async function fetchOrganization(): Promise<Organization> {
  const { data } = await client.GET("/api/organization");
  return data!;
}

export const organizationQueryOptions = () => queryOptions({ queryKey: [...roots.organization], queryFn: fetchOrganization });

export function useOrganization() {
  return useQuery(organizationQueryOptions());
}

export const organizationFormSchema = z.object({
  name: z.string().trim().min(1, { error: "Organization name is required" }),
  domain: z.string().trim().min(1, { error: "Domain is required" }),
  address: z.string().optional(),
  phone: z.string().optional(),
  website: z.string().optional(),
});
export type OrganizationFormValues = z.infer<typeof organizationFormSchema>;

/** The If-Match of a save of an organization-wide record (its details, its single sign-on): the loaded `updatedAt`, quoted; none before the first save. */
export const ifMatch = (updatedAt: string | null | undefined) => (updatedAt ? { "If-Match": `"${updatedAt}"` } : undefined);

/**
 * The save of an organization-wide record (its details, its single sign-on) cached under `key`: the
 * answer replaces the cached record at once, and the record is refetched once the save settles.
 */
export function useSaveOrganizationRecord<V, R>(key: QueryKey, save: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export async function updateOrganization({ values, updatedAt }: { values: OrganizationFormValues; updatedAt?: string | null }): Promise<Organization> {
  const { data } = await client.PUT("/api/organization", {
    body: {
      name: values.name,
      domain: values.domain,
      address: values.address ?? "",
      phone: values.phone ?? "",
      website: values.website ?? "",
    },
    headers: ifMatch(updatedAt),
  });
  return data!;
}

export function useUpdateOrganization() {
  return useSaveOrganizationRecord(roots.organization, updateOrganization);
}

export const addUserSchema = z.object({
  firstName: z.string().trim().min(1, { error: "First name is required" }),
  lastName: z.string().trim().min(1, { error: "Last name is required" }),
  email: z.email({ error: "Please enter a valid email address" }),
  role: z.enum(["admin", "user"]).default("user"),
});
export type AddUserValues = z.input<typeof addUserSchema>;

/** POST /api/admin/users answers the new user with their invitation link (shown once; ADR 0005). */
export type AddedUser = components["schemas"]["AddedUserOut"];
export type Invitation = components["schemas"]["InvitationOut"];

export function useAddUser() {
  return useRefreshingMutation([roots.adminUsers], async (values: AddUserValues): Promise<AddedUser> => {
    const { data } = await client.POST("/api/admin/users", { body: { ...values, role: values.role ?? "user" } });
    return data!;
  });
}

/** POST /api/admin/users/{id}/invitation: a new link for a user who has not set up yet (earlier links stop working). */
export function useReissueInvitation() {
  return useMutation({
    mutationFn: async (id: string): Promise<Invitation> => {
      const { data } = await client.POST("/api/admin/users/{user_id}/invitation", { params: { path: { user_id: id } } });
      return data!;
    },
  });
}

export function useDeactivateUser() {
  return useRefreshingMutation([roots.adminUsers], async (id: string): Promise<OrgUser> => {
    const { data } = await client.DELETE("/api/admin/users/{user_id}", { params: { path: { user_id: id } } });
    return data!;
  });
}
