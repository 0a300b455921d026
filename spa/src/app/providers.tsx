import { MantineProvider, Modal, darken, Notification, Tooltip, createTheme, type CSSVariablesResolver } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { ToastLayer } from "./ToastLayer";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { queryClient } from "@/lib/queryClient";
import "./compact.css";
import { getStoredCompact, applyCompact, themeColorSchemeManager } from "@/lib/theme";

export const theme = createTheme({
  primaryColor: "indigo",
  // Shade 8 keeps white text on filled buttons and indigo text on white above 4.5:1 (WCAG AA).
  primaryShade: { light: 8, dark: 6 },
  fontFamily: "Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
  components: {
    // Tooltip open delay 700 ms (docs/behaviour/screens.md §1).
    Tooltip: Tooltip.extend({ defaultProps: { openDelay: 700, withArrow: true } }),
    // Icon-only close buttons need a name (axe button-name).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close dialog" } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { "aria-label": "Close notification" } },
      styles: { description: { color: "var(--mantine-color-dimmed)" } },
    }),
  },
});

/** Dimmed text one shade darker than Mantine's default so it passes the 4.5:1 contrast check. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  // Mantine's light-variant text, outline and filled colours of the non-primary palettes sit below 4.5:1
  // for small text; darker shades keep badges, alerts and error messages readable (axe color-contrast).
  const light: Record<string, string> = {
    "--mantine-color-dimmed": t.colors.gray[7],
    "--mantine-color-error": t.colors.red[9],
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (name === "dark") continue;
    light[`--mantine-color-${name}-light-color`] = darken(shades[9], 0.3);
    light[`--mantine-color-${name}-outline`] = darken(shades[9], 0.2);
    light[`--mantine-color-${name}-text`] = darken(shades[9], 0.2);
    if (name !== t.primaryColor) {
      light[`--mantine-color-${name}-filled`] = darken(shades[9], 0.15);
      light[`--mantine-color-${name}-filled-hover`] = darken(shades[9], 0.3);
    }
  }
  // Dark theme (ADR 0018): filled buttons and badges keep white text above 4.5:1 with the same dark fills
  // as the light theme (Mantine's dark fills, e.g. the primary indigo.6, measured 4.0:1).
  const dark: Record<string, string> = { "--mantine-color-dimmed": t.colors.dark[1] };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (name === "dark") continue;
    dark[`--mantine-color-${name}-filled`] = darken(shades[9], 0.15);
    dark[`--mantine-color-${name}-filled-hover`] = darken(shades[9], 0.3);
  }
  dark["--mantine-primary-color-filled"] = darken(t.colors[t.primaryColor][9], 0.15);
  dark["--mantine-primary-color-filled-hover"] = darken(t.colors[t.primaryColor][9], 0.3);
  return { variables: {}, light, dark };
};

const colorSchemeManager = themeColorSchemeManager();
if (typeof document !== "undefined") applyCompact(getStoredCompact());

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver}>
        <ModalsProvider>
          {/* One toast at a time, 5 s by default (docs/behaviour/screens.md §6). */}
          <ToastLayer />
          <Tooltip.Group openDelay={700} closeDelay={300}>
            {children}
          </Tooltip.Group>
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
