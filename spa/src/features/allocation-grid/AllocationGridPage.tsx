import { Card, Group, Select, SimpleGrid, Stack, Text, Tooltip } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useEffect, useRef, useState } from "react";
import { formatDate, hours, displayTime } from "@/components/Dates";
import { Notice } from "@/components/Notice";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton } from "@/components/States";
import { Tag } from "@/components/Tag";
import { MAX_MARKERS, useAllocationGrid, useWeekSessions, utilisationColor, WARN_ABOVE, type GridTeacher } from "./api/allocationGrid";
import classes from "./components/AllocationGrid.module.css";
import { daysAvailable, patternSummary } from "@/lib/entities/availability";
import { useTeachers } from "@/lib/entities/teachers";

/** Teacher allocation grid (/teacher-allocation-gantt, admin only): docs/behaviour/allocation.md §4, §5. */
export default function AllocationGridPage() {
  const current = dayjs().year();
  const [year, setYear] = useState(current);
  const [term, setTerm] = useState<number | null>(null);
  const { data, isLoading, isError } = useAllocationGrid(year, term);
  // Painted availability (ADR 0027), from the teacher list: named under each teacher, and a week without any
  // available day is shaded.
  const patterns = new Map((useTeachers(false).data ?? []).map((t) => [t.id, t.availabilityPattern]));
  // The grid opens at the current week (ADR 0018): scrolled so that its column comes first after the
  // teacher names, and marked.
  const thisWeek = dayjs()
    .startOf("day")
    .subtract((dayjs().day() + 6) % 7, "day")
    .format("YYYY-MM-DD");
  const scroller = useRef<HTMLDivElement>(null);
  const hasThisWeek = !!data?.weeks.some((w) => w.weekStart === thisWeek);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to this week again when another year or term is shown
  useEffect(() => {
    const box = scroller.current;
    if (!box || !hasThisWeek) return;
    const column = box.querySelector<HTMLElement>("th[data-current-week]");
    const names = box.querySelector<HTMLElement>("thead th");
    if (column) box.scrollLeft = Math.max(0, column.offsetLeft - (names?.offsetWidth ?? 0));
  }, [hasThisWeek, year, term]);

  return (
    <>
      <PageHeader
        title="Teacher Allocation"
        subtitle="Weekly teaching load of every active teacher"
        actions={
          <>
            <Select
              label="Year"
              w={110}
              data={[current - 1, current, current + 1].map(String)}
              value={String(year)}
              onChange={(v) => setYear(Number(v ?? current))}
              allowDeselect={false}
            />
            <Select
              label="Term"
              w={140}
              data={[{ value: "", label: "All Terms" }, ...[1, 2, 3, 4].map((t) => ({ value: String(t), label: `Term ${t}` }))]}
              value={term ? String(term) : ""}
              onChange={(v) => setTerm(v ? Number(v) : null)}
              allowDeselect={false}
            />
          </>
        }
      />
      {isLoading ? (
        <CardGridSkeleton count={6} />
      ) : isError || !data ? (
        <Notice color="red" title="Error">
          Failed to load teacher allocation data
        </Notice>
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <Stat label="Total Teachers" value={data.summary.totalTeachers} />
            <Stat label="Active Teachers" value={data.summary.activeTeachers} />
            <Stat label="Over Capacity" value={data.summary.overCapacityTeachers} hint="above 95%" />
            <Stat label="Under Utilized" value={data.summary.underUtilizedTeachers} hint="below 70%" />
            <Stat label="Average Utilization" value={`${Math.round(data.summary.averageUtilization)}%`} />
          </SimpleGrid>
          <Group gap="xs" aria-label="Legend">
            <Text size="sm" fw={600}>
              Legend:
            </Text>
            <Tag color="yellow">Up to 50%</Tag>
            <Tag color="green">51-80%</Tag>
            <Tag color="blue">81-95%</Tag>
            <Tag color="red">Over 95%</Tag>
            <Group gap={4}>
              <span className={classes.marker} aria-hidden />
              <Text size="xs">Day session</Text>
            </Group>
            <Group gap={4}>
              <span className={`${classes.marker} ${classes.evening}`} aria-hidden />
              <Text size="xs">Evening session (from or past 17:00)</Text>
            </Group>
            <Group gap={4}>
              <IconAlertTriangle size={14} aria-hidden />
              <Text size="xs">Week above 80%</Text>
            </Group>
          </Group>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrolling region (a div: the grid sizes it) takes focus so keyboard users can scroll it (axe: scrollable-region-focusable) */}
          <div ref={scroller} className={classes.scroller} tabIndex={0} role="region" aria-label="Weekly allocation grid" data-testid="grid-scroller">
            <table className={classes.grid}>
              <thead>
                <tr>
                  <th className={classes.name} scope="col">
                    Teacher
                  </th>
                  {data.weeks.map((w) => (
                    <th
                      key={w.weekStart}
                      scope="col"
                      data-current-week={w.weekStart === thisWeek || undefined}
                      aria-current={w.weekStart === thisWeek ? "date" : undefined}
                      style={w.weekStart === thisWeek ? { boxShadow: "inset 0 -3px 0 var(--mantine-color-blue-6)" } : undefined}
                    >
                      <Text size="xs" fw={700}>
                        W{w.weekNumber}
                        {w.weekStart === thisWeek ? " · this week" : ""}
                      </Text>
                      <Text size="xs">{dayjs(w.weekStart).format("DD MMM")}</Text>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.teachers.map((t) => {
                  return (
                    <tr key={t.teacherId} data-testid="grid-teacher">
                      <th className={classes.name} scope="row">
                        <Text size="sm" fw={600}>
                          {t.teacherName}
                        </Text>
                        <Text size="xs">
                          Max {t.maxWeeklyHours} h/week · {Math.round(t.yearlyStats.utilizationPercentage)}% this period
                        </Text>
                        {patterns.get(t.teacherId)?.custom ? (
                          <Text size="xs" data-testid="grid-availability">
                            {patternSummary(patterns.get(t.teacherId)!)}
                          </Text>
                        ) : null}
                      </th>
                      {data.weeks.map((w, i) => {
                        const pattern = patterns.get(t.teacherId);
                        const away = !!pattern?.custom && daysAvailable(pattern, w.weekStart).length === 0;
                        return (
                          <td
                            key={w.weekStart}
                            data-unavailable={away || undefined}
                            title={away ? "Not available this week" : undefined}
                            style={
                              away ? { background: "repeating-linear-gradient(45deg, var(--mantine-color-gray-3) 0 4px, transparent 4px 8px)" } : undefined
                            }
                          >
                            <WeekCell teacher={t} index={i} weekStart={w.weekStart} />
                          </td>
                        );
                      })}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Stack>
      )}
    </>
  );
}

/** The sessions of one cell, loaded when its tooltip opens (the compact grid carries counts only). */
function WeekSessions({ teacherId, weekStart }: { teacherId: string; weekStart: string }) {
  const { data, isLoading } = useWeekSessions(teacherId, weekStart);
  if (isLoading || !data) return <>Loading sessions...</>;
  return (
    <>
      {data
        .slice(0, 8)
        .map((s) => `${formatDate(s.date)} ${displayTime(s.startTime)} ${s.unitCode} ${s.blockGroupCode}`)
        .join("; ")}
    </>
  );
}

function WeekCell({ teacher, index, weekStart }: { teacher: GridTeacher; index: number; weekStart: string }) {
  const total = teacher.totalHours[index] ?? 0;
  if (!total) return null;
  const utilisation = teacher.utilizationPercentage[index] ?? 0;
  const evening = teacher.eveningHours[index] ?? 0;
  const count = teacher.sessions[index] ?? 0;
  const eveningCount = Math.min(teacher.eveningSessions[index] ?? 0, count);
  const color = utilisationColor(utilisation);
  const markers = [...Array(count - eveningCount).fill(false), ...Array(eveningCount).fill(true)] as boolean[];
  const shown = markers.slice(0, MAX_MARKERS);
  const more = markers.length - shown.length;
  return (
    <Tooltip
      multiline
      w={260}
      label={
        <>
          {`${hours(total)} h (${Math.round(utilisation)}%), ${hours(evening)} h evening. `}
          <WeekSessions teacherId={teacher.teacherId} weekStart={weekStart} />
        </>
      }
    >
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a cell takes focus so that keyboard users get its tooltip (the sessions of that week) */}
      <div className={`${classes.cell} ${classes[color]}`} data-testid="grid-cell" tabIndex={0}>
        <Group gap={2} wrap="nowrap">
          <Text size="xs" fw={700}>
            {hours(total)}h
          </Text>
          {utilisation > WARN_ABOVE ? <IconAlertTriangle size={12} aria-label="Above 80% of capacity" /> : null}
        </Group>
        <div className={classes.markers}>
          {shown.map((isEveningSession, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: markers are drawn whole each render and have no identity
            <span key={i} className={`${classes.marker} ${isEveningSession ? classes.evening : ""}`} aria-hidden />
          ))}
          {more > 0 ? <span className={classes.plus}>+</span> : null}
        </div>
      </div>
    </Tooltip>
  );
}

function Stat({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm">{label}</Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {hint ? <Text size="xs">{hint}</Text> : null}
    </Card>
  );
}
