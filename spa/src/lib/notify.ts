/** Toasts of platform.md §8: success and destructive (failure) styles, one at a time, 5 s. */
import { notifications } from "@mantine/notifications";

/** The one place toasts are shown; close-button label and text colour come from the theme (providers). */
export function showToast(color: "green" | "red" | "blue" | "yellow", title: string, message = "", autoClose = 5000) {
  notifications.show({ title, message, color, autoClose });
}

export function notifySuccess(title: string, message?: string) {
  showToast("green", title, message);
}

export function notifyError(title: string, message?: string) {
  showToast("red", title, message, 6000);
}

export function notifyInfo(title: string, message?: string) {
  showToast("blue", title, message);
}
