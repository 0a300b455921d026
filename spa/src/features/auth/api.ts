/**
 * Sign-in area calls (platform.md §7): login, first-time check, authenticator setup, setup completion,
 * passkey sign-in and logout. Each call with its zod answer schema; the current user is cached under
 * roots.user (lib/auth.ts).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { z } from "zod";
import { apiJson } from "../../lib/api";
import type { CurrentUser } from "../../lib/auth";
import { roots } from "../../lib/queryKeys";

const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullish().transform((v) => v ?? ""),
    lastName: z.string().nullish().transform((v) => v ?? ""),
    role: z.enum(["admin", "user"]),
  })
  .loose();

const asUser = (value: unknown): CurrentUser | null => {
  const parsed = userSchema.safeParse(value);
  return parsed.success ? (parsed.data as unknown as CurrentUser) : null;
};

export const loginAnswerSchema = z
  .object({
    user: z.unknown().nullish(),
    requiresTotp: z.boolean().nullish(),
    requiresSetup: z.boolean().nullish(),
    userId: z.string().nullish(),
    message: z.string().nullish(),
  })
  .loose();

export interface LoginPayload {
  email: string;
  password: string;
  totpCode?: string;
  rememberMe: boolean;
}

export interface LoginResult {
  user: CurrentUser | null;
  requiresTotp: boolean;
  requiresSetup: boolean;
  userId: string | null;
}

export async function login(payload: LoginPayload): Promise<LoginResult> {
  const answer = loginAnswerSchema.parse(await apiJson("/api/auth/login", { method: "POST", json: payload }));
  return {
    user: asUser(answer.user),
    requiresTotp: !!answer.requiresTotp,
    requiresSetup: !!answer.requiresSetup,
    userId: answer.userId ?? null,
  };
}

/** Sets the current user from a sign-in answer (platform.md §4). */
export function useSetCurrentUser() {
  const queryClient = useQueryClient();
  return (user: CurrentUser | null) => queryClient.setQueryData(roots.user, user);
}

export function useLogin() {
  const setUser = useSetCurrentUser();
  return useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      if (result.user && !result.requiresTotp && !result.requiresSetup) setUser(result.user);
    },
  });
}

export const firstTimeAnswerSchema = z
  .object({
    requiresSetup: z.boolean().nullish(),
    userId: z.string().nullish(),
    hasPassword: z.boolean().nullish(),
    message: z.string().nullish(),
  })
  .loose();

export async function firstTimeLogin(email: string) {
  return firstTimeAnswerSchema.parse(await apiJson("/api/auth/first-time-login", { method: "POST", json: { email } }));
}

export function useFirstTimeLogin() {
  return useMutation({ mutationFn: firstTimeLogin });
}

export const totpSetupSchema = z.object({ qrCodeUri: z.string(), manualEntryKey: z.string() }).loose();
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export async function fetchTotpSetup(userId: string): Promise<TotpSetup> {
  return totpSetupSchema.parse(await apiJson(`/api/auth/totp-setup/${encodeURIComponent(userId)}`));
}

export const totpSetupQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [...roots.user, "totp-setup", userId],
    queryFn: () => fetchTotpSetup(userId),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export function useTotpSetup(userId: string) {
  return useQuery(totpSetupQueryOptions(userId));
}

export interface SetupPasswordPayload {
  userId: string;
  password: string;
  confirmPassword: string;
  totpCode: string;
}

export async function setupPassword(payload: SetupPasswordPayload): Promise<CurrentUser | null> {
  const answer = z.object({ user: z.unknown() }).loose().parse(
    await apiJson("/api/auth/setup-password", { method: "POST", json: payload }),
  );
  return asUser(answer.user);
}

export function useSetupPassword() {
  const setUser = useSetCurrentUser();
  return useMutation({ mutationFn: setupPassword, onSuccess: (user) => user && setUser(user) });
}

/** Passkey sign-in: begin (options), browser ceremony, complete (platform.md §4). */
export async function passkeyLogin(): Promise<CurrentUser | null> {
  const begin = await apiJson<Record<string, unknown>>("/api/auth/passkeys/authenticate/begin", { method: "POST" });
  const optionsJSON = ((begin as { options?: unknown }).options ?? begin) as PublicKeyCredentialRequestOptionsJSON;
  const response = await startAuthentication({ optionsJSON });
  const answer = z
    .object({ verified: z.boolean().nullish(), user: z.unknown().nullish(), message: z.string().nullish() })
    .loose()
    .parse(await apiJson("/api/auth/passkeys/authenticate/complete", { method: "POST", json: { response } }));
  const user = asUser(answer.user);
  if (answer.verified === false || !user) throw new Error(answer.message || "Passkey authentication failed");
  return user;
}

export function usePasskeyLogin() {
  const setUser = useSetCurrentUser();
  return useMutation({ mutationFn: passkeyLogin, onSuccess: (user) => setUser(user) });
}

export async function logout(): Promise<void> {
  await apiJson("/api/auth/logout", { method: "POST" });
}
