import { useMediaQuery } from "@mantine/hooks";
import { Avatar, Badge, Box, Button, Card, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title, ActionIcon } from "@mantine/core";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { notifyError } from "@/lib/notify";
import { ApiError, errorMessage } from "@/lib/api";
import { useTeacherAllocations, type Allocation } from "../api";
import { addDays, allocationBadge, formatDayMonth, formatRangeLabel, isoDate, plannerRange, shiftAnchor, startOfWeek, type PlannerView } from "../dates";

function AllocationBadge({ allocation }: { allocation: Allocation }) {
  const style = allocationBadge(allocation.status);
  return (
    <Badge size="sm" variant={style.variant} color={style.color} data-status={allocation.status}>
      {allocation.status}
    </Badge>
  );
}

function AllocationEntry({ allocation, compact }: { allocation: Allocation; compact?: boolean }) {
  if (compact) {
    return (
      <Paper withBorder p={4} radius="sm" title={`${allocation.teacherName} · ${allocation.time} · ${allocation.unitCode} · ${allocation.status}`}>
        <Text size="xs" fw={600} truncate>
          {allocation.teacherName}
        </Text>
        <Text size="xs" truncate>
          {allocation.time.split(" - ")[0]} {allocation.unitCode}
        </Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder p={6} radius="sm">
      <Text size="xs" fw={600} lineClamp={2}>
        {allocation.teacherName}
      </Text>
      <Text size="xs" c="dimmed">
        {allocation.time}
      </Text>
      <Text size="xs" lineClamp={2}>
        {allocation.unitCode} · {allocation.blockGroupCode}
        {allocation.room ? ` · ${allocation.room}` : ""}
      </Text>
      <AllocationBadge allocation={allocation} />
    </Paper>
  );
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The dashboard's Teacher Allocation Planner: each teacher's sessions by day or week, with its view switch and navigation (docs/behaviour/screens.md §3). */
export function AllocationPlanner({
  view,
  setView,
  plannerRef,
}: {
  view: PlannerView;
  setView: (v: PlannerView) => void;
  plannerRef: React.RefObject<HTMLDivElement | null>;
}) {
  const [anchor, setAnchor] = useState(() => new Date());
  const { start, end } = plannerRange(anchor, view);
  const query = useTeacherAllocations(isoDate(start), isoDate(end));
  useEffect(() => {
    if (query.isError && !(query.error instanceof ApiError && query.error.status === 401)) {
      notifyError("Failed to fetch allocations", errorMessage(query.error, "Failed to fetch allocations"));
    }
  }, [query.isError, query.error]);

  const byDate = useMemo(() => {
    const map = new Map<string, Allocation[]>();
    for (const a of query.data?.allocations ?? []) {
      const key = a.date.slice(0, 10);
      map.set(key, [...(map.get(key) ?? []), a]);
    }
    return map;
  }, [query.data]);

  const days: Date[] = [];
  const gridStart = view === "week" ? start : startOfWeek(start);
  const gridEnd = view === "week" ? end : addDays(startOfWeek(end), 6);
  for (let d = gridStart; d <= gridEnd; d = addDays(d, 1)) days.push(d);
  const todayKey = isoDate(new Date());
  const allocations = query.data?.allocations ?? [];
  const unallocated = query.data?.unallocatedTeachers ?? [];

  const phone = useMediaQuery("(max-width: 48em)") ?? false;
  const dayCell = (day: Date, stacked: boolean) => {
    const key = isoDate(day);
    const items = byDate.get(key) ?? [];
    const outside = view === "month" && day.getMonth() !== start.getMonth();
    const shown = view === "month" && !stacked ? items.slice(0, 2) : items;
    return (
      <Paper
        key={key}
        withBorder
        p={6}
        radius="sm"
        mih={stacked ? undefined : view === "week" ? 140 : 84}
        bg={outside ? "var(--mantine-color-default-hover)" : undefined}
        style={{ borderColor: key === todayKey ? "var(--mantine-color-indigo-5)" : undefined }}
        data-date={key}
      >
        <Text size="xs" fw={key === todayKey ? 700 : 500} mb={4} c={outside ? "dimmed" : undefined}>
          {stacked ? `${WEEKDAYS[(day.getDay() + 6) % 7]} ${formatDayMonth(day)}` : view === "week" ? formatDayMonth(day) : day.getDate()}
        </Text>
        <Stack gap={4}>
          {stacked && !items.length ? (
            <Text size="xs" c="dimmed">
              No sessions
            </Text>
          ) : null}
          {shown.map((a) => (
            <AllocationEntry key={a.id} allocation={a} compact={view === "month" && !stacked} />
          ))}
          {items.length > shown.length ? (
            <Text size="xs" c="dimmed">
              +{items.length - shown.length} more
            </Text>
          ) : null}
        </Stack>
      </Paper>
    );
  };
  const unscheduledPanel = (width: number | string) => (
    <Paper withBorder p="sm" radius="sm" w={width} style={{ flexShrink: 0 }}>
      <Text size="sm" fw={600} mb="xs">
        Teachers Not Scheduled
      </Text>
      {query.isLoading ? (
        <Skeleton h={60} />
      ) : unallocated.length === 0 ? (
        <Text size="xs" c="dimmed">
          Every active teacher has sessions in this {view}.
        </Text>
      ) : (
        <Stack gap={6} mah={360} style={{ overflowY: "auto" }} tabIndex={0} role="region" aria-label="Teachers not scheduled">
          {unallocated.map((t) => (
            <Group key={t.id} gap="xs" wrap="nowrap">
              <Avatar size="sm" radius="xl" color="gray">
                {t.initials}
              </Avatar>
              <Box miw={0}>
                <Text size="xs" fw={500} truncate>
                  {t.name}
                </Text>
                {t.maxWeeklyHours != null ? (
                  <Text size="xs" c="dimmed">
                    Max {t.maxWeeklyHours}h/week
                  </Text>
                ) : null}
              </Box>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );

  return (
    <Card withBorder radius="md" padding="lg" ref={plannerRef} id="allocation-planner">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Box>
          <Title order={2} size="h4">
            Teacher Allocation Planner
          </Title>
          <Text size="sm" c="dimmed" data-testid="planner-range">
            {formatRangeLabel(start, end, view)}
          </Text>
        </Box>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as PlannerView)}
            data={[
              { label: "Week", value: "week" },
              { label: "Month", value: "month" },
            ]}
            aria-label="Planner view"
          />
          <ActionIcon
            variant="default"
            aria-label={view === "week" ? "Previous week" : "Previous month"}
            onClick={() => setAnchor((a) => shiftAnchor(a, view, -1))}
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <Button size="xs" variant="default" onClick={() => setAnchor(new Date())}>
            Today
          </Button>
          <ActionIcon variant="default" aria-label={view === "week" ? "Next week" : "Next month"} onClick={() => setAnchor((a) => shiftAnchor(a, view, 1))}>
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
      </Group>
      {phone ? (
        // A phone reads the planner as stacked day cards (ADR 0018); the month shows only its days with sessions.
        <Stack gap="xs" role="region" aria-label="Allocation calendar" data-testid="planner-stacked">
          {days.filter((day) => view === "week" || (byDate.get(isoDate(day)) ?? []).length).map((day) => dayCell(day, true))}
          {!query.isLoading && allocations.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" mt="md">
              No sessions scheduled for this {view}
            </Text>
          ) : null}
          {unscheduledPanel("100%")}
        </Stack>
      ) : (
        <Group align="flex-start" gap="md" wrap="nowrap" style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label="Allocation calendar">
          <Box style={{ flex: 1, minWidth: 560 }}>
            <SimpleGrid cols={7} spacing={6}>
              {WEEKDAYS.map((d) => (
                <Text key={d} size="xs" fw={700} c="dimmed" ta="center">
                  {d}
                </Text>
              ))}
              {days.map((day) => dayCell(day, false))}
            </SimpleGrid>
            {!query.isLoading && allocations.length === 0 ? (
              <Text size="sm" c="dimmed" ta="center" mt="md">
                No sessions scheduled for this {view}
              </Text>
            ) : null}
          </Box>
          {unscheduledPanel(220)}
        </Group>
      )}
    </Card>
  );
}
