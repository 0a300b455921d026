import { Alert, Button, Group, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { openReplan, setImpactNotice, useImpactNotice } from "@/lib/replan";

/**
 * "3 sessions of 2 block groups fall on this holiday. Review a re-plan …" with Review re-plan and Dismiss,
 * at the top of the page until dismissed or reviewed: a toast would queue behind the save's own success
 * toast (and its Undo) for 10 s. What it says is set by `warnOfImpact` (lib/replan.ts).
 */
export function ImpactNotice() {
  const notice = useImpactNotice();
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
