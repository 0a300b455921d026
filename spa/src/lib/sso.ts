/** Single sign-on discovery: whether an email signs in with its organization's identity provider (the sign-in page and the profile's identity check). */
import { useQuery } from "@tanstack/react-query";
import { client } from "./api";
import type { components } from "./api-schema";
import { roots } from "./queryKeys";

export type SsoDiscovery = components["schemas"]["SsoDiscoverOut"];

/** Something worth asking discover about: one @, a dot in the domain, no spaces. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/**
 * POST /api/auth/sso/discover {email}: whether the email signs in with its organization's identity
 * provider ({sso, providerName, startUrl, required}).
 */
export async function discoverSso(email: string): Promise<SsoDiscovery> {
  const { data } = await client.POST("/api/auth/sso/discover", { body: { email } });
  return data!;
}

/** The discovery of `email` (lower-cased, trimmed), asked only for something that looks like an email. */
export function useSsoDiscovery(email: string) {
  const key = email.trim().toLowerCase();
  return useQuery({
    queryKey: [...roots.ssoDiscover, key],
    queryFn: () => discoverSso(key),
    enabled: looksLikeEmail(key),
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
}
