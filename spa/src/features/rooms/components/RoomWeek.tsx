/**
 * A room's week: its sessions Monday to Sunday on the planner board's read-only calendar
 * (features/board/SessionCalendar, docs/adr/0026-planner-board.md), with Previous, Next and Today (and the
 * month and term views). Read from the room's board (GET /api/board?roomId=&from=&to=, with the holidays and
 * term breaks to shade), which is keyed under the timetables, so it stays live like every timetable screen.
 * The room's and its campus's planner boards are a click away.
 */
import { ActionIcon, Alert, Group, Modal, Stack, Text } from "@mantine/core";
import { IconCalendarWeek } from "@tabler/icons-react";
import { useCallback, useState } from "react";
import { formatDate } from "@/components/Dates";
import { useBoard } from "@/lib/entities/planner";
import { PlannerLink } from "@/components/PlannerLink";
import { SessionCalendar } from "@/components/calendar/SessionCalendar";
import type { Room } from "../api";

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
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const onRange = useCallback((from: string, to: string) => setRange((r) => (r && r.from === from && r.to === to ? r : { from, to })), []);
  const board = useBoard("room", room.id, range?.from ?? null, range?.to ?? null);
  return (
    <Stack>
      <Group justify="space-between">
        <Text fw={600} data-testid="room-week-range">
          {range ? `${formatDate(range.from)} - ${formatDate(range.to)}` : ""}
          {room.capacity ? ` · ${room.capacity} seats` : ""}
        </Text>
        <Group gap="xs">
          <PlannerLink scope="room" id={room.id} name={`room ${room.code}`} />
          {room.campusId && room.campus ? <PlannerLink scope="campus" id={room.campusId} name={`campus ${room.campus.name}`} text={room.campus.name} /> : null}
        </Group>
      </Group>
      {board.isError ? (
        <Alert color="red" title="The room's week could not be loaded">
          {board.error instanceof Error ? board.error.message : "Try again."}
        </Alert>
      ) : null}
      <div data-testid="room-week" data-loaded={board.isSuccess && !board.isPlaceholderData ? "true" : "false"} data-from={range?.from ?? ""}>
        <SessionCalendar sessions={board.data?.sessions ?? []} shading={board.data?.shading} view="week" onRange={onRange} />
      </div>
    </Stack>
  );
}
