import { Notifications } from "@mantine/notifications";
import { useEffect, useState } from "react";
import "./toasts.css";

/**
 * Whether a dialog is open on the page now; while one is and a toast shows, the page's root element
 * carries `data-toast-over-dialog` (toasts.css then moves the dialog down under the toast).
 */
function useDialogOpen(): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    // A toast grows as it enters (its content laid out, its animation run): its height is read again
    // whenever it changes.
    const sizes = new ResizeObserver(() => check());
    let watched: Element | null = null;
    const check = () => {
      const dialog = !!document.querySelector(".mantine-Modal-root, [role='dialog'][aria-modal='true']");
      const toast = document.querySelector<HTMLElement>(".mantine-Notification-root");
      setOpen(dialog);
      const root = document.documentElement;
      if (toast !== watched) {
        if (watched) sizes.unobserve(watched);
        if (toast) sizes.observe(toast);
        watched = toast;
      }
      if (dialog && toast) {
        root.setAttribute("data-toast-over-dialog", "");
        // Its layout height (not its entry animation's): the dialog starts below it.
        root.style.setProperty("--toast-clearance", `${Math.max(toast.offsetHeight, toast.getBoundingClientRect().bottom) + 32}px`);
      } else root.removeAttribute("data-toast-over-dialog");
    };
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      sizes.disconnect();
      document.documentElement.removeAttribute("data-toast-over-dialog");
    };
  }, []);
  return open;
}

/**
 * The toasts (one at a time). They sit bottom right, where a page has no buttons under them. While a
 * dialog is open they move to the top centre and the dialog moves down below them, so a toast never
 * covers a dialog's actions (its Apply or Save, a history row's Undo, its close button) at any width
 * (ADR 0018).
 */
export function ToastLayer() {
  const dialogOpen = useDialogOpen();
  return <Notifications limit={1} autoClose={5000} position={dialogOpen ? "top-center" : "bottom-right"} />;
}
