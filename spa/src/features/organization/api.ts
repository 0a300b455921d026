/**
 * Organization management calls (platform.md §7): GET/PUT /api/organization (PUT sends If-Match with the
 * loaded updatedAt, decisions.md §6), GET/POST /api/admin/users and DELETE /api/admin/users/{id} (deactivate).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../lib/api";
import { roots } from "../../lib/queryKeys";

const text = z.string().nullish().transform((v) => v ?? "");

export const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string(),
    address: text,
    phone: text,
    website: text,
    updatedAt: z.string().nullish(),
  })
  .loose();
export type Organization = z.infer<typeof organizationSchema>;

export const organizationQueryOptions = () =>
  queryOptions({
    queryKey: [...roots.organization],
    queryFn: async () => organizationSchema.parse(await apiJson("/api/organization")),
  });

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

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ values, updatedAt }: { values: OrganizationFormValues; updatedAt?: string | null }) =>
      apiJson<unknown>("/api/organization", {
        method: "PUT",
        json: {
          name: values.name,
          domain: values.domain,
          address: values.address ?? "",
          phone: values.phone ?? "",
          website: values.website ?? "",
        },
        headers: updatedAt ? { "If-Match": `"${updatedAt}"` } : undefined,
      }).then((data) => organizationSchema.parse(data)),
    onSuccess: (org) => queryClient.setQueryData(roots.organization, org),
    onSettled: () => queryClient.invalidateQueries({ queryKey: roots.organization }),
  });
}

export const orgUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: text,
    lastName: text,
    role: z.string(),
    isActive: z.boolean(),
    lastLogin: z.string().nullish(),
  })
  .loose();
export type OrgUser = z.infer<typeof orgUserSchema>;

export const adminUsersQueryOptions = () =>
  queryOptions({
    queryKey: [...roots.adminUsers],
    queryFn: async () => z.array(orgUserSchema).parse(await apiJson("/api/admin/users")),
  });

export function useAdminUsers() {
  return useQuery(adminUsersQueryOptions());
}

export const addUserSchema = z.object({
  firstName: z.string().trim().min(1, { error: "First name is required" }),
  lastName: z.string().trim().min(1, { error: "Last name is required" }),
  email: z.email({ error: "Please enter a valid email address" }),
  role: z.enum(["admin", "user"]).default("user"),
});
export type AddUserValues = z.input<typeof addUserSchema>;

export function useAddUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: AddUserValues) => apiJson<unknown>("/api/admin/users", { method: "POST", json: values }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: roots.adminUsers }),
  });
}

export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<unknown>(`/api/admin/users/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: roots.adminUsers }),
  });
}
