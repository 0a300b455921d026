import { Select } from "@mantine/core";
import { useEffect, useMemo, useState } from "react";
import { BulkActionModal, type BulkActionProps, type BulkActionText } from "../../../components/BulkActionModal";
import { ROOM_TYPES, useRoomAvailabilityForSessions, useRooms } from "../../rooms/api";
import { useBulkSetRoom, type BulkRoomResult } from "../api/timetables";

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
 * Set Room for the selected sessions (issue 19, ADR 0019): the picker lists the active rooms with their
 * capacity and type and whether they are free at the times of every selected session (free ones first);
 * the write is all or nothing and a 409 names the clash.
 */
export function BulkRoomModal(props: BulkActionProps) {
  const { opened, sessionIds } = props;
  const rooms = useRooms();
  const availability = useRoomAvailabilityForSessions(sessionIds, opened);
  const setRoom = useBulkSetRoom();
  const [roomId, setRoomId] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setRoomId(null);
  }, [opened]);
  const options = useMemo(() => {
    const state = new Map((availability.data ?? []).map((a) => [a.roomId, a]));
    return (rooms.data ?? [])
      .filter((r) => r.isActive)
      .map((r) => {
        const a = state.get(r.id);
        const what = [r.name || ROOM_TYPES[r.type], r.capacity ? `${r.capacity} seats` : null].filter(Boolean).join(" · ");
        const when = !a ? "" : a.free ? "free" : `booked for ${a.busyFor} of ${sessionIds.length} (${a.bookedBy})`;
        return { value: r.id, label: `${r.code} · ${what}${when ? ` · ${when}` : ""}`, free: a?.free ?? true };
      })
      .sort((x, y) => Number(y.free) - Number(x.free) || x.label.localeCompare(y.label));
  }, [rooms.data, availability.data, sessionIds.length]);
  return (
    <BulkActionModal {...props} choice={roomId} text={ROOM_TEXT} write={(sessionIds, roomId) => setRoom.mutateAsync({ sessionIds, roomId })}>
      <Select
        label="Room"
        placeholder={availability.isFetching ? "Checking which rooms are free..." : "Select a room"}
        searchable
        nothingFoundMessage="No rooms recorded yet"
        data={options.map(({ value, label }) => ({ value, label }))}
        value={roomId}
        onChange={setRoomId}
      />
    </BulkActionModal>
  );
}
