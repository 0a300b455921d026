/**
 * Sign-in area calls (docs/behaviour/accounts.md §4): login, first-time check, authenticator setup, setup completion,
 * passkey sign-in, logout and the single sign-on discovery of an email (ADR 0022). Each call with its zod answer schema; the current user is cached under
 * roots.user (lib/auth.ts).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import type { CurrentUser } from "@/lib/auth";
import { roots } from "@/lib/queryKeys";
import { forgetSsoEmail } from "@/lib/ssoSession";

export { discoverSso, looksLikeEmail, type SsoDiscovery, useSsoDiscovery } from "@/lib/sso";

type Schemas = components["schemas"];
export type LoginPayload = Schemas["LoginIn"];
export type FirstTimeAnswer = Schemas["FirstTimeLoginOut"];
export type TotpSetup = Schemas["TotpSetupOut"];
export type SetupPasswordPayload = Schemas["SetupPasswordIn"];

/**
 * POST /api/auth/passkeys/authenticate/begin answers the WebAuthn request options, bare or under
 * `options`; the server declares no response schema for it (a dict), hence this local type.
 */
type PasskeyAuthenticateBegin = PublicKeyCredentialRequestOptionsJSON | { options: PublicKeyCredentialRequestOptionsJSON };

export interface LoginResult {
  user: CurrentUser | null;
  requiresTotp: boolean;
  requiresSetup: boolean;
  userId: string | null;
}

export async function login(payload: LoginPayload): Promise<LoginResult> {
  const { data } = await client.POST("/api/auth/login", { body: payload });
  return {
    user: data?.user ?? null,
    requiresTotp: !!data?.requiresTotp,
    requiresSetup: !!data?.requiresSetup,
    userId: data?.userId ?? null,
  };
}

/** Sets the current user from a sign-in answer (docs/behaviour/accounts.md §2). */
export function useSetCurrentUser() {
  const queryClient = useQueryClient();
  return (user: CurrentUser | null) => queryClient.setQueryData(roots.user, user);
}

export function useLogin() {
  const setUser = useSetCurrentUser();
  return useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      if (result.user && !result.requiresTotp && !result.requiresSetup) {
        forgetSsoEmail(); // signed in with a password: no silent single sign-on re-check for this session
        setUser(result.user);
      }
    },
  });
}

/** POST /api/auth/first-time-login: an email, and the invitation token of the link /auth/setup?token=... (ADR 0005). */
export async function firstTimeLogin(input: string | { email?: string; token?: string }): Promise<FirstTimeAnswer> {
  const body = typeof input === "string" ? { email: input, token: "" } : { email: input.email ?? "", token: input.token ?? "" };
  const { data } = await client.POST("/api/auth/first-time-login", { body });
  return data!;
}

export function useFirstTimeLogin() {
  return useMutation({ mutationFn: firstTimeLogin });
}

export async function fetchTotpSetup(userId: string): Promise<TotpSetup> {
  const { data } = await client.GET("/api/auth/totp-setup/{user_id}", { params: { path: { user_id: userId } } });
  return data!;
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

export async function setupPassword(payload: SetupPasswordPayload): Promise<CurrentUser | null> {
  const { data } = await client.POST("/api/auth/setup-password", { body: payload });
  return data?.user ?? null;
}

export function useSetupPassword() {
  const setUser = useSetCurrentUser();
  return useMutation({
    mutationFn: setupPassword,
    onSuccess: (user) => {
      if (!user) return;
      forgetSsoEmail();
      setUser(user);
    },
  });
}

/** Passkey sign-in: begin (options), browser ceremony, complete (docs/behaviour/accounts.md §3). */
export async function passkeyLogin(): Promise<CurrentUser | null> {
  const { data: begin } = await client.POST("/api/auth/passkeys/authenticate/begin");
  const answer = begin as unknown as PasskeyAuthenticateBegin;
  const optionsJSON = "options" in answer ? answer.options : answer;
  const response = await startAuthentication({ optionsJSON });
  const { data } = await client.POST("/api/auth/passkeys/authenticate/complete", {
    body: { response: { ...response } },
  });
  const user = data?.user ?? null;
  if (data?.verified === false || !user) throw new Error("Passkey authentication failed");
  return user;
}

export function usePasskeyLogin() {
  const setUser = useSetCurrentUser();
  return useMutation({
    mutationFn: passkeyLogin,
    onSuccess: (user) => {
      forgetSsoEmail();
      setUser(user);
    },
  });
}

/**
 * Explicit sign-out: also forgets the single sign-on email, so no silent re-check signs the user back in.
 * Answers where to send the browser to sign out at the identity provider too (a single sign-on session whose
 * provider offers it, ADR 0024), else null.
 */
export async function logout(): Promise<string | null> {
  const { data } = await client.POST("/api/auth/logout");
  forgetSsoEmail();
  return data?.providerLogoutUrl ?? null;
}
