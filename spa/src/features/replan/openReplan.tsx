import { modals } from "@mantine/modals";
import type { ChangeQuery } from "./api";
import { ReplanReview } from "./ReplanReview";

/** Opens the re-plan review of a change in a dialog ("Review re-plan"). */
export function openReplan(change: ChangeQuery) {
  const modalId = `replan-${JSON.stringify(change)}`;
  modals.open({
    modalId,
    title: "Review re-plan",
    size: "xl",
    children: <ReplanReview change={change} onClose={() => modals.close(modalId)} />,
  });
}
