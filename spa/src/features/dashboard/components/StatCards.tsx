import { Box, Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon } from "@mantine/core";
import { IconClock, IconSchool, IconTrendingUp, IconUsers, IconUsersGroup, type Icon } from "@tabler/icons-react";
import { DEFAULT_EFFICIENCY, useDashboardStats } from "../api";

/**
 * The change of a count against 30 days ago (ADR 0018; overriding the original fixed trends):
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

/** The dashboard's four stat cards with their 30-day trends (docs/behaviour/screens.md §3, ADR 0018). */
export function StatCards() {
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
