/**
 * Settings calls (docs/behaviour/accounts.md §8): GET /api/auth/settings (404 means the defaults, docs/behaviour/accounts.md §8), PUT with
 * {theme, preferences}, and POST /api/auth/export-data (a JSON file download named with the date).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { ApiError, apiFetch, client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";

export const DATE_FORMATS = ["DD/MM/YYYY", "MM/DD/YYYY", "YYYY-MM-DD"] as const;
export const TIME_FORMATS = [
  { value: "12h", label: "12 hour (AM/PM)" },
  { value: "24h", label: "24 hour" },
] as const;
export const TIMEZONES = ["Australia/Melbourne", "Australia/Sydney", "Australia/Perth", "Australia/Adelaide"] as const;
export const AUTOSAVE_MS = 500;

/**
 * Narrows the server's SettingsOut (theme and formats declared as plain strings) to the values the screens
 * offer, each unknown value falling back to its default.
 */
export const settingsSchema = z.object({
  theme: z.enum(["light", "dark", "system"]).catch("system"),
  preferences: z
    .object({
      dateFormat: z.string().catch("DD/MM/YYYY"),
      timeFormat: z.enum(["12h", "24h"]).catch("24h"),
      timezone: z.string().catch("Australia/Melbourne"),
      language: z.string().catch("en"),
      compactView: z.boolean().catch(false),
    })
    .loose(),
});
export type UserSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: UserSettings = {
  theme: "system",
  preferences: { dateFormat: "DD/MM/YYYY", timeFormat: "24h", timezone: "Australia/Melbourne", language: "en", compactView: false },
};

/** The saved settings, or null when none were saved yet (404). */
export async function fetchSettings(): Promise<UserSettings | null> {
  try {
    const { data } = await client.GET("/api/auth/settings");
    return settingsSchema.parse(data);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const settingsQueryOptions = () => queryOptions({ queryKey: [...roots.settings], queryFn: fetchSettings });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}

export async function saveSettings(settings: UserSettings): Promise<UserSettings> {
  const body: components["schemas"]["SettingsIn"] = {
    theme: settings.theme,
    preferences: {
      dateFormat: settings.preferences.dateFormat,
      timeFormat: settings.preferences.timeFormat,
      timezone: settings.preferences.timezone,
      language: settings.preferences.language,
      compactView: settings.preferences.compactView,
    },
  };
  const { data } = await client.PUT("/api/auth/settings", { body });
  return settingsSchema.parse(data);
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => queryClient.setQueryData(roots.settings, saved),
  });
}

export function exportFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `blockplan-export-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}

/** Downloads the export as a JSON file named with the current date. */
export async function exportData(): Promise<void> {
  const response = await apiFetch("/api/auth/export-data", { method: "POST" });
  const blob = await response.blob();
  const url = URL.createObjectURL(new Blob([blob], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = exportFileName();
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Applies the saved theme and compact view once after sign-in (a new browser picks up the user's
 * appearance without visiting Settings). Mounted by the shell.
 */
export function useApplySavedAppearance(apply: (settings: UserSettings) => void) {
  const query = useQuery(settingsQueryOptions());
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || !query.isSuccess) return;
    applied.current = true;
    if (query.data) apply(query.data);
  }, [query.isSuccess, query.data, apply]);
}
