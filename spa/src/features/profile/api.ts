/**
 * Profile calls (platform.md §7): profile update (names only), change password (PUT), passkeys list,
 * registration (begin, browser ceremony with @simplewebauthn/browser, complete) and delete.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { z } from "zod";
import { apiJson } from "../../lib/api";
import type { CurrentUser } from "../../lib/auth";
import { roots } from "../../lib/queryKeys";

export async function updateProfile(values: { firstName: string; lastName: string }): Promise<CurrentUser> {
  // Only firstName and lastName are sent (platform.md §5).
  return apiJson<CurrentUser>("/api/auth/profile", {
    method: "PUT",
    json: { firstName: values.firstName, lastName: values.lastName },
  });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => queryClient.setQueryData(roots.user, user),
  });
}

export async function changePassword(values: { currentPassword: string; newPassword: string; confirmPassword: string }) {
  return apiJson<{ message?: string }>("/api/auth/change-password", { method: "PUT", json: values });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

export const passkeySchema = z
  .object({
    id: z.string(),
    deviceName: z.string().nullish(),
    createdAt: z.string().nullish(),
    lastUsed: z.string().nullish(),
  })
  .loose();
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: [...roots.passkeys],
    queryFn: async () => z.array(passkeySchema).parse(await apiJson("/api/auth/passkeys")),
  });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}

/** Registration: begin (creation options), the browser ceremony, complete with the optional device name. */
export async function registerPasskey(deviceName: string): Promise<Passkey> {
  const begin = await apiJson<Record<string, unknown>>("/api/auth/passkeys/register/begin", { method: "POST" });
  const optionsJSON = ((begin as { options?: unknown }).options ?? begin) as PublicKeyCredentialCreationOptionsJSON;
  const response = await startRegistration({ optionsJSON });
  const name = deviceName.trim();
  return passkeySchema.parse(
    await apiJson("/api/auth/passkeys/register/complete", {
      method: "POST",
      json: name ? { response, deviceName: name } : { response },
    }),
  );
}

export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roots.passkeys }),
  });
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(`/api/auth/passkeys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roots.passkeys }),
  });
}

/** POST /api/auth/reset-totp: TOTP off; the answer's user replaces the cached user. */
export function useResetTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<{ message?: string; user?: CurrentUser }>("/api/auth/reset-totp", { method: "POST" }),
    onSuccess: (answer) => {
      if (answer?.user) queryClient.setQueryData(roots.user, answer.user);
      else void queryClient.invalidateQueries({ queryKey: roots.user });
    },
  });
}

const totpSetupSchema = z.object({ qrCodeUri: z.string(), manualEntryKey: z.string() }).loose();

/** A new authenticator secret for the signed-in user (GET /api/auth/totp-setup/{userId}); loaded when the dialog opens. */
export function useTotpEnrolment(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...roots.user, "totp-enrolment", userId],
    queryFn: async () => totpSetupSchema.parse(await apiJson(`/api/auth/totp-setup/${encodeURIComponent(userId)}`)),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** POST /api/auth/enable-totp {totpCode}; the user is refetched afterwards (platform.md §4). */
export function useEnableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (totpCode: string) => apiJson("/api/auth/enable-totp", { method: "POST", json: { totpCode } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roots.user, exact: true }),
  });
}
