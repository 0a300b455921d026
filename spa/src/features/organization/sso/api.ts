/**
 * Single sign-on configuration calls (ADR 0022; admin only): GET/PUT/DELETE /api/organization/sso (PUT
 * sends If-Match with the loaded updatedAt, docs/behaviour/concurrency.md §1) and POST /api/organization/sso/test. The
 * client secret is write-only: the server only says whether one is stored (`hasClientSecret`), and the
 * form never holds it unless the admin types a new one.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { ifMatch, useSaveOrganizationRecord } from "../api";

type Schemas = components["schemas"];
export type SsoConfig = Schemas["SsoConfigOut"];
export type SsoConfigBody = Schemas["SsoConfigIn"];
export type SsoTestResult = Schemas["SsoTestOut"];
export type SsoMode = SsoConfigBody["mode"];

/** The configuration as a record of the shared record-form helpers (one per organization). */
export type SsoRecord = SsoConfig & { id: string };
export const asSsoRecord = (config: SsoConfig | null | undefined): SsoRecord | null => (config?.configured ? { ...config, id: "sso" } : null);

export async function fetchSsoConfig(): Promise<SsoConfig> {
  const { data } = await client.GET("/api/organization/sso");
  return data!;
}

export const ssoConfigQueryOptions = () => queryOptions({ queryKey: [...roots.sso], queryFn: fetchSsoConfig });

export function useSsoConfig() {
  return useQuery(ssoConfigQueryOptions());
}

export const SSO_MESSAGES = {
  name: "Provider name is required",
  issuerUrl: "Enter the issuer URL, starting with https://",
  clientId: "Client ID is required",
  clientSecret: "Client secret is required",
  domains: "Add at least one email domain",
  breakGlass: "Name a break-glass administrator who can still sign in with a password",
} as const;

/**
 * The form (the server's rules, checked before sending). `hasClientSecret` is not a field: it says whether
 * a blank secret keeps the stored one (else a secret is required, as on the first save).
 */
export const ssoFormSchema = z
  .object({
    name: z.string().trim().min(1, { error: SSO_MESSAGES.name }),
    issuerUrl: z
      .string()
      .trim()
      .regex(/^https?:\/\/[^\s/?#]+[^\s?#]*$/i, { error: SSO_MESSAGES.issuerUrl }),
    clientId: z.string().trim().min(1, { error: SSO_MESSAGES.clientId }),
    clientSecret: z.string(),
    hasClientSecret: z.boolean(),
    domains: z.array(z.string()).min(1, { error: SSO_MESSAGES.domains }),
    mode: z.enum(["optional", "required"]),
    breakGlassUserId: z.string().nullable(),
    createAccounts: z.boolean(),
    enabled: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (!values.hasClientSecret && !values.clientSecret.trim()) {
      ctx.addIssue({ code: "custom", path: ["clientSecret"], message: SSO_MESSAGES.clientSecret });
    }
    if (values.mode === "required" && !values.breakGlassUserId) {
      ctx.addIssue({ code: "custom", path: ["breakGlassUserId"], message: SSO_MESSAGES.breakGlass });
    }
  });
export type SsoFormValues = z.input<typeof ssoFormSchema>;

/** The form's values for a configuration (or none yet): the secret always starts blank. */
export function ssoFormValues(config: SsoConfig | null | undefined): SsoFormValues {
  return {
    name: config?.name ?? "",
    issuerUrl: config?.issuerUrl ?? "",
    clientId: config?.clientId ?? "",
    clientSecret: "",
    hasClientSecret: !!config?.hasClientSecret,
    domains: config?.domains ?? [],
    mode: config?.mode === "required" ? "required" : "optional",
    breakGlassUserId: config?.breakGlassUserId ?? null,
    createAccounts: !!config?.createAccounts,
    // A new configuration starts enabled (the server's default).
    enabled: config?.configured ? !!config.enabled : true,
  };
}

/** The PUT body: a blank secret is left out (the server keeps the stored one). */
export function ssoBody(values: SsoFormValues): SsoConfigBody {
  const secret = values.clientSecret.trim();
  return {
    name: values.name.trim(),
    issuerUrl: values.issuerUrl.trim(),
    clientId: values.clientId.trim(),
    ...(secret ? { clientSecret: secret } : {}),
    domains: values.domains.map((d) => d.trim()).filter(Boolean),
    mode: values.mode,
    breakGlassUserId: values.breakGlassUserId || null,
    createAccounts: values.createAccounts,
    enabled: values.enabled,
  };
}

export async function saveSsoConfig({ config, values }: { config: SsoConfig | null; values: SsoFormValues }): Promise<SsoConfig> {
  const updatedAt = config?.configured ? config.updatedAt : null;
  const { data } = await client.PUT("/api/organization/sso", {
    body: ssoBody(values),
    headers: ifMatch(updatedAt),
  });
  return data!;
}

export function useSaveSso() {
  return useSaveOrganizationRecord(roots.sso, saveSsoConfig);
}

export function useDeleteSso() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await client.DELETE("/api/organization/sso");
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: roots.sso }),
  });
}

/** "Test connection": what the issuer's discovery document says (`ok` false with the reason). */
export function useTestSsoConnection() {
  return useMutation({
    mutationFn: async (issuerUrl: string): Promise<SsoTestResult> => {
      const { data } = await client.POST("/api/organization/sso/test", { body: { issuerUrl: issuerUrl.trim() } });
      return data!;
    },
  });
}

export type SsoDomainState = Schemas["SsoDomainOut"];

/**
 * "Verify now" (ADR 0024): the server looks up the domain's TXT record and answers the configuration with
 * each domain's state; a 400 says the record is not there yet, a 409 that another organization has it.
 */
export function useVerifySsoDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (domain: string): Promise<SsoConfig> => {
      const { data } = await client.POST("/api/organization/sso/domains/verify", { body: { domain } });
      return data!;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: roots.sso }),
  });
}
