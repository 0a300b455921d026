/**
 * An Alert whose title keeps AA contrast: Mantine's light alerts colour the title with the pale accent
 * (axe "color-contrast" fails for yellow, orange, green and red), so the title uses the text colour and
 * the accent stays on the background and the icon.
 */
import { Alert, type AlertProps } from "@mantine/core";
import type { ComponentPropsWithoutRef } from "react";

const styles = { title: { color: "var(--mantine-color-text)" }, message: { color: "var(--mantine-color-text)" } };

export function Notice(props: AlertProps & Omit<ComponentPropsWithoutRef<"div">, "title" | "color" | "style">) {
  return <Alert styles={styles} {...props} />;
}
