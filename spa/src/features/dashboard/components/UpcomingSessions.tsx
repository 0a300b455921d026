import { Badge, Box, Button, Card, Group, Skeleton, Text, Title } from "@mantine/core";
import { DataTable } from "@/components/DataTable";
import { useNavigate } from "react-router";
import { useUpcomingSessions } from "../api";
import { DAY_NAMES, formatDayMonth, formatTime12, parseIsoDate, sessionStatusColor } from "../dates";

const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;

/** The dashboard's Upcoming Sessions table; "Week View" opens the planner's week view (docs/behaviour/screens.md §3). */
export function UpcomingSessions({ onWeekView }: { onWeekView: () => void }) {
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
