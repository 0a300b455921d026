import { Select } from "@mantine/core";
import { useEffect, useMemo, useState } from "react";
import { BulkActionModal, type BulkActionProps, type BulkActionText } from "@/components/BulkActionModal";
import { useRooms } from "@/lib/entities/rooms";
import { roomPickerGroups, useRoomAvailabilityForSessions } from "../api/roomChoices";
import { useBlockGroupChoices, useBulkSetRoom, type BulkRoomResult, type Session } from "../api/timetables";

const ROOM_TEXT: BulkActionText<BulkRoomResult> = {
  title: "Set Room",
  submit: "Set Room",
  missing: "Please select sessions and a room",
  refused: "Room refused: it is booked at one of these times",
  saved: (result) => `Room ${result.room} set for ${result.updated} session(s)`,
  warnings: "Room set with warnings",
  failed: "Failed to set the room",
};

/**
 * Set Room for the selected sessions (ADR 0019): the picker lists the active rooms with their
 * capacity and type and whether they are free at the times of every selected session (free ones first);
 * the write is all or nothing and a 409 names the clash. Grouped by campus, the sessions' own first; a
 * room booked at any of their times is disabled and says what holds it (ADR 0018).
 */
export function BulkRoomModal({ sessions, ...props }: BulkActionProps & { sessions?: Session[] }) {
  const { opened, sessionIds } = props;
  const rooms = useRooms();
  const groups = useBlockGroupChoices();

  const availability = useRoomAvailabilityForSessions(sessionIds, opened);
  const setRoom = useBulkSetRoom();
  const [roomId, setRoomId] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setRoomId(null);
  }, [opened]);
  // The selected sessions' campus (their block groups' campus when they share one) comes first.
  const homeCampusId = useMemo(() => {
    const bySession = new Map((sessions ?? []).map((s) => [s.id, s.blockGroupId]));
    const byGroup = new Map((groups.data ?? []).map((g) => [g.id, g.campusId]));
    const campuses = new Set(sessionIds.map((id) => byGroup.get(bySession.get(id) ?? "") ?? null));
    return campuses.size === 1 ? [...campuses][0] : null;
  }, [sessions, groups.data, sessionIds]);
  const options = useMemo(() => {
    const state = new Map((availability.data ?? []).map((a) => [a.roomId, a]));
    return roomPickerGroups(rooms.data ?? [], state, homeCampusId, (r) => r.id, sessionIds.length).map(({ group, items }) => ({
      group,
      items: items.map(({ value, label, disabled }) => ({ value, label, disabled })),
    }));
  }, [rooms.data, availability.data, sessionIds.length, homeCampusId]);
  return (
    <BulkActionModal {...props} choice={roomId} text={ROOM_TEXT} write={(sessionIds, roomId) => setRoom.mutateAsync({ sessionIds, roomId })}>
      <Select
        label="Room"
        placeholder={availability.isFetching ? "Checking which rooms are free..." : "Select a room"}
        searchable
        nothingFoundMessage="No rooms recorded yet"
        data={options}
        value={roomId}
        onChange={setRoomId}
      />
    </BulkActionModal>
  );
}
