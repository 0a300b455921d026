import { Alert, Button, Group, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useSyncExternalStore } from "react";
import type { ChangeQuery } from "./api";
import { openReplan } from "./openReplan";

export interface ImpactNoticeValue {
  text: string;
  change: ChangeQuery;
}

let current: ImpactNoticeValue | null = null;
const listeners = new Set<() => void>();

/** Shows (or, with null, clears) the notice about what a saved holiday or leave hits. */
export function setImpactNotice(value: ImpactNoticeValue | null) {
  current = value;
  for (const listener of listeners) listener();
}

/**
 * "3 sessions of 2 block groups fall on this holiday. Review a re-plan …" with Review re-plan and Dismiss,
 * at the top of the page until dismissed or reviewed (ADR 0015): a toast would queue behind the save's
 * own success toast (and its Undo) for 10 s.
 */
export function ImpactNotice() {
  const notice = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => null,
  );
  if (!notice) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Sessions affected" mb="md" data-testid="impact-notice">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm">{notice.text}</Text>
        <Group gap="xs">
          <Button
            size="compact-sm"
            onClick={() => {
              setImpactNotice(null);
              openReplan(notice.change);
            }}
          >
            Review re-plan
          </Button>
          <Button size="compact-sm" variant="subtle" color="gray" onClick={() => setImpactNotice(null)}>
            Dismiss
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
