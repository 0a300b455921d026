/** "Planner" button to the planner board of a block group, teacher, room or campus (/planner/<scope>/<id>; docs/adr/0026-planner-board.md). */
import { ActionIcon, Button, Group, Text, Tooltip } from "@mantine/core";
import { IconCalendarWeek } from "@tabler/icons-react";
import { Link } from "react-router";
import { useCampusOptions } from "@/lib/entities/campuses";
import type { PlannerScope } from "@/lib/entities/planner";

/** `text` replaces the button's word "Planner" (e.g. a campus's name where several buttons stand side by side). */
export function PlannerLink({
  scope,
  id,
  name,
  compact = false,
  text = "Planner",
}: {
  scope: PlannerScope;
  id: string;
  name: string;
  compact?: boolean;
  text?: string;
}) {
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
      {text}
    </Button>
  );
}

/** One planner button per active campus of the organization (GET /api/campuses); nothing while there is none. */
export function CampusPlannerLinks() {
  const campuses = useCampusOptions();
  if (!campuses.data?.length) return null;
  return (
    <Group gap="xs" data-testid="campus-planner-links">
      <Text size="sm" c="dimmed">
        Campus boards:
      </Text>
      {campuses.data.map((c) => (
        <PlannerLink key={c.id} scope="campus" id={c.id} name={`campus ${c.name}`} text={c.name} />
      ))}
    </Group>
  );
}
