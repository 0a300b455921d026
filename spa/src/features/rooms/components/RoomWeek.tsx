/**
 * A room's week (ADR 0019): its sessions Monday to Sunday, by time, with previous/next week. Read from
 * the room's timetable (GET /api/timetables?roomId=), which stays live like every timetable list.
 */
import { ActionIcon, Button, Group, Modal, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconCalendarWeek, IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";
import { displayTime, formatDate } from "@/components/Dates";
import { PlannerLink } from "@/components/PlannerLink";
import { useTimetables } from "@/lib/entities/timetables";
import type { Room } from "../api";

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const mondayOf = (d: dayjs.Dayjs) => d.subtract((d.day() + 6) % 7, "day").startOf("day");

export function RoomWeekButton({ room }: { room: Room }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <ActionIcon variant="subtle" aria-label={`Week of room ${room.code}`} onClick={() => setOpened(true)}>
        <IconCalendarWeek size={16} />
      </ActionIcon>
      <Modal opened={opened} onClose={() => setOpened(false)} title={`Room ${room.code} - week`} size="90%">
        {opened ? <RoomWeek room={room} /> : null}
      </Modal>
    </>
  );
}

function RoomWeek({ room }: { room: Room }) {
  const [monday, setMonday] = useState(() => mondayOf(dayjs()));
  const sessions = useTimetables({ blockGroupId: null, teacherId: null, roomId: room.id, hidePast: false });
  const days = Array.from({ length: 7 }, (_, i) => monday.add(i, "day"));
  const byDay = new Map<string, NonNullable<typeof sessions.data>>();
  for (const s of sessions.data ?? []) byDay.set(s.actualDate, [...(byDay.get(s.actualDate) ?? []), s]);
  return (
    <Stack>
      <Group justify="space-between">
        <Text fw={600} data-testid="room-week-range">
          {formatDate(days[0].format("YYYY-MM-DD"))} - {formatDate(days[6].format("YYYY-MM-DD"))}
          {room.capacity ? ` · ${room.capacity} seats` : ""}
        </Text>
        <Group gap="xs">
          <ActionIcon variant="default" aria-label="Previous week" onClick={() => setMonday((m) => m.subtract(7, "day"))}>
            <IconChevronLeft size={16} />
          </ActionIcon>
          <Button size="xs" variant="default" onClick={() => setMonday(mondayOf(dayjs()))}>
            This week
          </Button>
          <ActionIcon variant="default" aria-label="Next week" onClick={() => setMonday((m) => m.add(7, "day"))}>
            <IconChevronRight size={16} />
          </ActionIcon>
          <PlannerLink scope="room" id={room.id} name={`room ${room.code}`} />
          {room.campusId && room.campus ? <PlannerLink scope="campus" id={room.campusId} name={`campus ${room.campus.name}`} text={room.campus.name} /> : null}
        </Group>
      </Group>
      {sessions.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 7 }} spacing={6}>
          {days.map((d, i) => {
            const key = d.format("YYYY-MM-DD");
            const items = (byDay.get(key) ?? []).filter((s) => s.status !== "cancelled");
            return (
              <Paper key={key} withBorder p={6} radius="sm" mih={120} data-testid="room-week-day" data-date={key}>
                <Text size="xs" fw={700} mb={4}>
                  {DAYS[i]} {d.format("D MMM")}
                </Text>
                <Stack gap={4}>
                  {items.length ? (
                    items.map((s) => (
                      <Paper key={s.id} withBorder p={4} radius="sm" data-testid="room-week-session">
                        <Text size="xs" fw={600}>
                          {displayTime(s.startTime)}-{displayTime(s.endTime)}
                        </Text>
                        <Text size="xs">
                          {s.unit.code} · {s.blockGroup.code}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {s.teacher ? `${s.teacher.firstName} ${s.teacher.lastName}` : "Unassigned"}
                        </Text>
                      </Paper>
                    ))
                  ) : (
                    <Text size="xs" c="dimmed">
                      Free
                    </Text>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
