/**
 * Profile calls (docs/behaviour/accounts.md §3): profile update (names only), change password (PUT), passkeys list,
 * registration (begin, browser ceremony with @simplewebauthn/browser, complete) and delete.
 */
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { withConfirmedIdentity } from "./ConfirmIdentity";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import type { CurrentUser } from "@/lib/auth";
import { roots } from "@/lib/queryKeys";

type Schemas = components["schemas"];
export type Passkey = Schemas["PasskeyOut"];
export type ChangePasswordPayload = Schemas["ChangePasswordIn"];

/**
 * POST /api/auth/passkeys/register/begin answers the WebAuthn creation options, bare or under `options`;
 * the server declares no response schema for it (a dict), hence this local type.
 */
type PasskeyRegisterBegin = PublicKeyCredentialCreationOptionsJSON | { options: PublicKeyCredentialCreationOptionsJSON };

export async function updateProfile(values: { firstName: string; lastName: string }): Promise<CurrentUser> {
  // Only firstName and lastName are sent (docs/behaviour/accounts.md §5).
  const { data } = await client.PUT("/api/auth/profile", { body: { firstName: values.firstName, lastName: values.lastName } });
  return data!;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => queryClient.setQueryData(roots.user, user),
  });
}

export async function changePassword(values: ChangePasswordPayload): Promise<Schemas["MessageOut"]> {
  const { data } = await client.PUT("/api/auth/change-password", { body: values });
  return data!;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

export async function fetchPasskeys(): Promise<Passkey[]> {
  const { data } = await client.GET("/api/auth/passkeys");
  return data!;
}

export const passkeysQueryOptions = () => queryOptions({ queryKey: [...roots.passkeys], queryFn: fetchPasskeys });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}

/** Registration: begin (creation options), the browser ceremony, complete with the optional device name. */
export async function registerPasskey(deviceName: string): Promise<Passkey> {
  // Registering a lasting credential needs a recent confirmation of identity (ADR 0006).
  const { data: begin } = await withConfirmedIdentity(() => client.POST("/api/auth/passkeys/register/begin"));
  const answer = begin as unknown as PasskeyRegisterBegin;
  const optionsJSON = "options" in answer ? answer.options : answer;
  const response = { ...(await startRegistration({ optionsJSON })) };
  const name = deviceName.trim();
  const { data } = await client.POST("/api/auth/passkeys/register/complete", {
    body: name ? { response, deviceName: name } : { response },
  });
  return data!;
}

export function useRegisterPasskey() {
  return useRefreshingMutation([roots.passkeys], registerPasskey, "success");
}

export function useDeletePasskey() {
  return useRefreshingMutation(
    [roots.passkeys],
    async (id: string) => {
      await client.DELETE("/api/auth/passkeys/{passkey_id}", { params: { path: { passkey_id: id } } });
    },
    "success",
  );
}

/** POST /api/auth/reset-totp: TOTP off; the answer's user replaces the cached user. */
export function useResetTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await withConfirmedIdentity(() => client.POST("/api/auth/reset-totp"))).data,
    onSuccess: (answer) => {
      if (answer?.user) queryClient.setQueryData(roots.user, answer.user);
      else void queryClient.invalidateQueries({ queryKey: roots.user });
    },
  });
}

/** A new authenticator secret for the signed-in user (GET /api/auth/totp-setup/{userId}); loaded when the dialog opens. */
export function useTotpEnrolment(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...roots.user, "totp-enrolment", userId],
    queryFn: async () => {
      const { data } = await client.GET("/api/auth/totp-setup/{user_id}", { params: { path: { user_id: userId } } });
      return data!;
    },
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** POST /api/auth/enable-totp {totpCode}; the user is refetched afterwards (docs/behaviour/screens.md §6). */
export function useEnableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (totpCode: string) => (await withConfirmedIdentity(() => client.POST("/api/auth/enable-totp", { body: { totpCode } }))).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roots.user, exact: true }),
  });
}
