/**
 * A Badge whose text always meets WCAG AA contrast (axe "color-contrast") in both themes: Mantine's light
 * badges of green, orange and yellow are too pale on white, so in the light theme light tags take a dark
 * shade for their text; on the dark theme's tinted background they take a light shade (ACTIVE
 * measured 1.41:1 with the dark text). Filled tags take a dark shade (or a light one with dark text) for
 * their background in both.
 */
import { Badge, useComputedColorScheme, type BadgeProps } from "@mantine/core";
import { forwardRef, type ComponentPropsWithoutRef } from "react";

const DARK_TEXT = new Set(["green", "orange", "yellow", "lime", "teal"]);
const FILLED: Record<string, string> = {
  green: "#237032", // green.9 (#2b8a3e) gives white text only 4.4:1
  red: "red.9",
  blue: "blue.9",
  gray: "gray.7",
  yellow: "yellow.4",
  orange: "orange.4",
  teal: "teal.9",
  cyan: "cyan.9",
  grape: "grape.9",
  indigo: "indigo.9",
  violet: "violet.9",
};

export type TagProps = Omit<BadgeProps, "variant"> & { variant?: "light" | "filled" | "outline" | "dot" } & Omit<
    ComponentPropsWithoutRef<"div">,
    "color" | "style"
  >;

/** The text colour of a light tag of `base` colour in a theme. */
export function lightTagText(base: string, scheme: "light" | "dark"): string {
  if (scheme === "dark") return base === "gray" || base === "dark" ? "gray.3" : `${base}.3`;
  return DARK_TEXT.has(base) ? "dark.7" : `${base}.9`;
}

export const Tag = forwardRef<HTMLDivElement, TagProps>(function Tag({ color = "indigo", variant = "light", style, ...rest }, ref) {
  const scheme = useComputedColorScheme("light");
  const merged = { flexShrink: 0, ...(typeof style === "object" ? style : {}) };
  const base = String(color).split(".")[0];
  if (variant === "filled") {
    // Explicit text colours (not autoContrast): pale fills take near-black text, dark fills white.
    const pale = FILLED[base]?.endsWith(".4");
    return <Badge ref={ref} color={FILLED[base] ?? `${base}.9`} variant="filled" c={pale ? "dark.9" : "white"} style={merged} {...rest} />;
  }
  return <Badge ref={ref} color={base} variant="light" c={lightTagText(base, scheme)} style={merged} {...rest} />;
});

/** A record's "Active" (green) or "Inactive" (grey) tag. */
export function ActiveTag({ active, ...props }: Omit<TagProps, "color" | "children"> & { active: boolean }) {
  return (
    <Tag color={active ? "green" : "gray"} {...props}>
      {active ? "Active" : "Inactive"}
    </Tag>
  );
}
