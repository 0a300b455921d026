import { modals } from "@mantine/modals";
import type { ChangeQuery } from "@/lib/replan";
import { ReplanReview } from "./ReplanReview";

/**
 * Opens the re-plan review of a change in a dialog ("Review re-plan"). The app shell provides it to
 * lib/replan.ts (`provideReplanReview`), whose `openReplan` the other features call.
 */
export function openReplanReview(change: ChangeQuery) {
  const modalId = `replan-${JSON.stringify(change)}`;
  modals.open({
    modalId,
    title: "Review re-plan",
    size: "xl",
    children: <ReplanReview change={change} onClose={() => modals.close(modalId)} />,
  });
}
