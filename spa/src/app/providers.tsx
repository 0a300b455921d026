import { MantineProvider, Tooltip, createTheme, type CSSVariablesResolver } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { queryClient } from "../lib/queryClient";
import { getStoredCompact, applyCompact, themeColorSchemeManager } from "../lib/theme";

export const theme = createTheme({
  primaryColor: "indigo",
  // Shade 8 keeps white text on filled buttons and indigo text on white above 4.5:1 (WCAG AA).
  primaryShade: { light: 8, dark: 6 },
  fontFamily: "Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
  components: {
    // Tooltip open delay 700 ms (platform.md §9).
    Tooltip: Tooltip.extend({ defaultProps: { openDelay: 700, withArrow: true } }),
  },
});

/** Dimmed text one shade darker than Mantine's default so it passes the 4.5:1 contrast check. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { "--mantine-color-dimmed": t.colors.gray[7] },
  dark: { "--mantine-color-dimmed": t.colors.dark[1] },
});

const colorSchemeManager = themeColorSchemeManager();
if (typeof document !== "undefined") applyCompact(getStoredCompact());

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver}>
        <ModalsProvider>
          {/* One toast at a time, 5 s by default (platform.md §9). */}
          <Notifications limit={1} autoClose={5000} position="top-right" />
          <Tooltip.Group openDelay={700} closeDelay={300}>
            {children}
          </Tooltip.Group>
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
