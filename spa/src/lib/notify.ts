/** Toasts of platform.md §8: success and destructive (failure) styles, one at a time, 5 s. */
import { notifications } from "@mantine/notifications";

export function notifySuccess(title: string, message?: string) {
  notifications.show({ title, message: message ?? "", color: "green" });
}

export function notifyError(title: string, message?: string) {
  notifications.show({ title, message: message ?? "", color: "red", autoClose: 6000 });
}

export function notifyInfo(title: string, message?: string) {
  notifications.show({ title, message: message ?? "", color: "blue" });
}
