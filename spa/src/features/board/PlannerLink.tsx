/** "Planner" button to the planner board of a block group, teacher, room or campus (features/board). */
import { ActionIcon, Button, Tooltip } from "@mantine/core";
import { IconCalendarWeek } from "@tabler/icons-react";
import { Link } from "react-router";
import type { Scope } from "./api";

export function PlannerLink({ scope, id, name, compact = false }: { scope: Scope; id: string; name: string; compact?: boolean }) {
  const to = `/planner/${scope}/${id}`;
  const label = `Open the planner board of ${name}`;
  if (compact) {
    return (
      <Tooltip label={label}>
        <ActionIcon component={Link} to={to} variant="subtle" aria-label={label}>
          <IconCalendarWeek size={16} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Button component={Link} to={to} variant="light" leftSection={<IconCalendarWeek size={16} />} aria-label={label}>
      Planner
    </Button>
  );
}
