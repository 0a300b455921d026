import { Select } from "@mantine/core";
import { useEffect, useMemo, useState } from "react";
import { BulkActionModal, useBulkFeedback } from "../../../components/BulkActionModal";
import { notifySuccess, notifyWarning } from "../../../components/Notify";
import { ROOM_TYPES, useRoomAvailabilityForSessions, useRooms } from "../../rooms/api";
import { useBulkSetRoom } from "../api/timetables";

/**
 * Set Room for the selected sessions (issue 19, ADR 0019): the picker lists the active rooms with their
 * capacity and type and whether they are free at the times of every selected session (free ones first);
 * the write is all or nothing and a 409 names the clash.
 */
export function BulkRoomModal({ opened, onClose, sessionIds, onDone }: { opened: boolean; onClose: () => void; sessionIds: string[]; onDone: () => void }) {
  const rooms = useRooms();
  const availability = useRoomAvailabilityForSessions(sessionIds, opened);
  const setRoom = useBulkSetRoom();
  const [roomId, setRoomId] = useState<string | null>(null);
  const feedback = useBulkFeedback(opened);
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
  const submit = () => {
    feedback.clear();
    if (!sessionIds.length || !roomId) {
      feedback.setError("Please select sessions and a room");
      return;
    }
    setRoom.mutate(
      { sessionIds, roomId },
      {
        onSuccess: (result) => {
          notifySuccess(`Room ${result.room} set for ${result.updated} session(s)`);
          if (result.warnings.length) notifyWarning("Room set with warnings", result.warnings.map((w) => w.message).join(" "));
          onDone();
          onClose();
        },
        onError: (e) => feedback.fail(e, "Failed to set the room"),
      },
    );
  };
  return (
    <BulkActionModal
      opened={opened}
      onClose={onClose}
      title="Set Room"
      count={sessionIds.length}
      feedback={feedback}
      conflictTitle="Room refused: it is booked at one of these times"
      submitLabel="Set Room"
      pending={setRoom.isPending}
      onSubmit={submit}
    >
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
