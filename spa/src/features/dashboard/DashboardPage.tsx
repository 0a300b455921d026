import { useMediaQuery } from "@mantine/hooks";
import {
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  ActionIcon,
} from "@mantine/core";
import {
  IconCalendarPlus,
  IconChartBar,
  IconChevronLeft,
  IconChevronRight,
  IconClock,
  IconSchool,
  IconSquarePlus,
  IconTrendingUp,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from "@tabler/icons-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { DataTable } from "../../components/DataTable";
import { useNavigate } from "react-router";
import { notifyError } from "../../lib/notify";
import { ApiError, errorMessage } from "../../lib/api";
import { DEFAULT_EFFICIENCY, useDashboardStats, useTeacherAllocations, useTeacherWorkload, useUpcomingSessions, type Allocation } from "./api";
import {
  addDays,
  allocationBadge,
  DAY_NAMES,
  formatDayMonth,
  formatRangeLabel,
  formatTime12,
  isoDate,
  parseIsoDate,
  plannerRange,
  sessionStatusColor,
  shiftAnchor,
  startOfWeek,
  workloadColor,
  type PlannerView,
} from "./dates";

/**
 * The change of a count against 30 days ago (issue 18, overriding platform.md's fixed trends):
 * "+25% from 30 days ago", "+3 in the last 30 days" when there were none, "No change in 30 days".
 */
export function trendText(now: number, before: number | undefined): { text: string; up: boolean } {
  if (before === undefined) return { text: "", up: false };
  if (now === before) return { text: "No change in 30 days", up: false };
  if (!before) return { text: `+${now} in the last 30 days`, up: true };
  const pct = Math.round(((now - before) / before) * 100);
  return { text: `${pct > 0 ? "+" : ""}${pct}% from 30 days ago`, up: pct > 0 };
}

function StatCard({
  label,
  value,
  icon: IconC,
  footer,
  loading,
  up = true,
}: {
  label: string;
  value: string;
  icon: Icon;
  footer: string;
  loading: boolean;
  up?: boolean;
}) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Box>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          {loading ? (
            <Skeleton h={30} w={60} mt={6} />
          ) : (
            <Text fz={30} fw={700} lh={1.3} data-testid={`stat-${label}`}>
              {value}
            </Text>
          )}
        </Box>
        <ThemeIcon size={44} radius="md" variant="light">
          <IconC size={24} aria-hidden />
        </ThemeIcon>
      </Group>
      <Group gap={4} mt="sm">
        {up ? <IconTrendingUp size={16} color="var(--mantine-color-green-8)" aria-hidden /> : null}
        <Text size="sm" c="dimmed" data-testid={`trend-${label}`}>
          {footer}
        </Text>
      </Group>
    </Card>
  );
}

function StatCards() {
  const stats = useDashboardStats();
  const s = stats.data;
  const loading = stats.isLoading;
  const efficiency = s?.efficiency ?? DEFAULT_EFFICIENCY;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      {(
        [
          ["Active Courses", "activeCourses", IconSchool],
          ["Active Teachers", "activeTeachers", IconUsers],
          ["Block Groups", "blockGroups", IconUsersGroup],
        ] as const
      ).map(([label, key, icon]) => {
        const trend = trendText(s?.[key] ?? 0, s?.thirtyDaysAgo?.[key]);
        return <StatCard key={key} label={label} value={String(s?.[key] ?? 0)} icon={icon} footer={trend.text} up={trend.up} loading={loading} />;
      })}
      <StatCard
        label="Weekly Hours"
        value={String(Math.round((s?.weeklyHours ?? 0) * 10) / 10)}
        icon={IconClock}
        footer={`Average efficiency ${Math.round(efficiency * 10) / 10}%`}
        loading={loading}
      />
    </SimpleGrid>
  );
}

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

function AllocationPlanner({
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
        // A phone reads the planner as stacked day cards (issue 18); the month shows only its days with sessions.
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

function WorkloadPanel() {
  const workload = useTeacherWorkload();
  const navigate = useNavigate();
  const entries = workload.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Title order={2} size="h4">
        Teacher Workload
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        This week's allocation
      </Text>
      {workload.isLoading ? (
        <Stack>
          <Skeleton h={32} />
          <Skeleton h={32} />
          <Skeleton h={32} />
        </Stack>
      ) : entries.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="lg">
          No teacher workload data available
        </Text>
      ) : (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="lg"
          verticalSpacing="sm"
          mah={420}
          style={{ overflowY: "auto" }}
          tabIndex={0}
          role="region"
          aria-label="Teacher workload list"
        >
          {entries.map((entry) => {
            const color = workloadColor(entry.percentage);
            return (
              <Box key={entry.id}>
                <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                  <Group gap="xs" wrap="nowrap" miw={0}>
                    <Avatar size="sm" radius="xl" color="indigo">
                      {entry.initials}
                    </Avatar>
                    <Text size="sm" truncate>
                      {entry.name}
                    </Text>
                  </Group>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                    {entry.hours}h / {entry.maxHours}h ({entry.percentage}%)
                  </Text>
                </Group>
                <Progress value={Math.min(entry.percentage, 100)} color={color} aria-label={`${entry.name} workload ${entry.percentage}%`} data-color={color} />
              </Box>
            );
          })}
        </SimpleGrid>
      )}
      <Button variant="light" fullWidth mt="md" onClick={() => navigate("/teachers")}>
        View All Teachers
      </Button>
    </Card>
  );
}

function UpcomingSessions({ onWeekView }: { onWeekView: () => void }) {
  const upcoming = useUpcomingSessions();
  const navigate = useNavigate();
  const sessions = upcoming.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Box>
          <Title order={2} size="h4">
            Upcoming Sessions
          </Title>
          <Text size="sm" c="dimmed">
            Next 7 days
          </Text>
        </Box>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={onWeekView}>
            Week View
          </Button>
          <Button size="xs" onClick={() => navigate("/block-groups?schedule=1")}>
            Generate Timetable
          </Button>
        </Group>
      </Group>
      {upcoming.isLoading ? (
        <Skeleton h={160} />
      ) : sessions.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="lg">
          No upcoming sessions scheduled
        </Text>
      ) : (
        <DataTable
          minWidth={900}
          scrollProps={{ type: "native", maxHeight: 440, tabIndex: 0, role: "region", "aria-label": "Upcoming sessions table" }}
          striped
          highlightOnHover
          verticalSpacing={6}
          fz="sm"
          rows={sessions}
          rowKey={(s) => s.id}
          columns={[
            { label: "Day", cell: (s) => DAY_NAMES[((s.dayOfWeek % 7) + 7) % 7] },
            { label: "Date", td: NOWRAP, cell: (s) => formatDayMonth(parseIsoDate(s.actualDate)) },
            { label: "Time", td: NOWRAP, cell: (s) => `${formatTime12(s.startTime)} - ${formatTime12(s.endTime)}` },
            {
              label: "Unit",
              cell: (s) => (
                <>
                  <Text size="sm" fw={500}>
                    {s.unit?.code}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {s.unit?.name}
                  </Text>
                </>
              ),
            },
            { label: "Block Group", cell: (s) => s.blockGroup?.code },
            { label: "Teacher", cell: (s) => s.teacher || "Unassigned" },
            { label: "Room", cell: (s) => s.room || "TBA" },
            {
              label: "Status",
              td: NOWRAP,
              cell: (s) => (
                <Badge size="sm" variant="light" color={sessionStatusColor(s.status)} style={{ overflow: "visible" }}>
                  {s.status}
                </Badge>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}

const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;

const ACTION_CARDS = [
  {
    title: "Create Block Group",
    text: "Set up a new student cohort with its course, campus and study mode.",
    button: "Create Block Group",
    to: "/block-groups",
    icon: IconSquarePlus,
  },
  {
    title: "Generate Timetable",
    text: "Schedule a block group's units across its preferred days.",
    button: "Generate Timetable",
    to: "/block-groups?schedule=1",
    icon: IconCalendarPlus,
  },
  { title: "View Reports", text: "Delivery, workload and compliance reports for your department.", button: "View Reports", to: "/reports", icon: IconChartBar },
];

/** Dashboard (/): stat cards, allocation planner, workload, upcoming sessions and action cards (platform.md §2). */
export default function DashboardPage() {
  const [view, setView] = useState<PlannerView>("week");
  const plannerRef = useRef<HTMLDivElement | null>(null);
  const navigate = useNavigate();
  const showWeek = () => {
    setView("week");
    plannerRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  return (
    <Stack gap="lg">
      <StatCards />
      <AllocationPlanner view={view} setView={setView} plannerRef={plannerRef} />
      {/* Upcoming Sessions takes the full width so that every column shows at 1440 px (issue 18). */}
      <UpcomingSessions onWeekView={showWeek} />
      <WorkloadPanel />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {ACTION_CARDS.map((card) => (
          <Card key={card.title} withBorder radius="md" padding="lg">
            <Group wrap="nowrap" align="flex-start">
              <ThemeIcon size={40} radius="md" variant="light">
                <card.icon size={22} aria-hidden />
              </ThemeIcon>
              <Box>
                <Title order={2} size="h5">
                  {card.title}
                </Title>
                <Text size="sm" c="dimmed" mb="sm">
                  {card.text}
                </Text>
                <Button size="xs" variant="light" onClick={() => navigate(card.to)}>
                  {card.button}
                </Button>
              </Box>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
