/**
 * Theme and compact view (docs/behaviour/accounts.md §8; docs/behaviour/screens.md): the theme (light, dark, system) lives in the browser's local
 * storage under `blockplan-theme` and is applied through Mantine's colour scheme (`system` = Mantine `auto`,
 * following the operating system), plus a `light`/`dark` class on <html>. Compact view is kept under
 * `blockplan-compact` and applied as `data-compact` on <html>.
 */
import type { MantineColorScheme, MantineColorSchemeManager } from "@mantine/core";

export type ThemeChoice = "light" | "dark" | "system";
export const THEME_KEY = "blockplan-theme";
export const COMPACT_KEY = "blockplan-compact";

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return value === "light" || value === "dark" || value === "system";
}

export function getStoredTheme(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(THEME_KEY);
    return isThemeChoice(value) ? value : "system";
  } catch {
    return "system";
  }
}

export const toMantineScheme = (theme: ThemeChoice): MantineColorScheme => (theme === "system" ? "auto" : theme);
export const fromMantineScheme = (scheme: MantineColorScheme): ThemeChoice => (scheme === "auto" ? "system" : scheme);

/** The light/dark class on <html> for a choice (system resolves through prefers-color-scheme). */
export function applyThemeClass(theme: ThemeChoice) {
  const dark = theme === "dark" || (theme === "system" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  root.classList.add(dark ? "dark" : "light");
}

/** Mantine colour scheme manager backed by `blockplan-theme` (values light, dark, system). */
export function themeColorSchemeManager(): MantineColorSchemeManager {
  let handler: ((event: StorageEvent) => void) | null = null;
  return {
    get: (defaultValue) => {
      const stored = window.localStorage?.getItem(THEME_KEY);
      const theme = isThemeChoice(stored) ? stored : fromMantineScheme(defaultValue);
      applyThemeClass(theme);
      return toMantineScheme(theme);
    },
    set: (value) => {
      const theme = fromMantineScheme(value);
      try {
        window.localStorage.setItem(THEME_KEY, theme);
      } catch {
        // storage full or blocked: the scheme still applies for this page
      }
      applyThemeClass(theme);
    },
    subscribe: (onUpdate) => {
      handler = (event) => {
        if (event.storageArea === window.localStorage && event.key === THEME_KEY && isThemeChoice(event.newValue)) {
          onUpdate(toMantineScheme(event.newValue));
        }
      };
      window.addEventListener("storage", handler);
    },
    unsubscribe: () => {
      if (handler) window.removeEventListener("storage", handler);
      handler = null;
    },
    clear: () => window.localStorage?.removeItem(THEME_KEY),
  };
}

export function getStoredCompact(): boolean {
  try {
    return window.localStorage.getItem(COMPACT_KEY) === "true";
  } catch {
    return false;
  }
}

export function applyCompact(compact: boolean) {
  try {
    window.localStorage.setItem(COMPACT_KEY, String(compact));
  } catch {
    // ignore
  }
  if (compact) document.documentElement.dataset.compact = "true";
  else delete document.documentElement.dataset.compact;
}
