import { Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useEffect, useMemo, useState } from "react";
import { ConflictAlert } from "../../../components/ConflictAlert";
import { Notice } from "../../../components/Notice";
import { classifyError, notifyError, notifySuccess, notifyWarning, type ConflictItem } from "../../../components/Notify";
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
  const [error, setError] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<ConflictItem[]>([]);
  useEffect(() => {
    if (opened) {
      setRoomId(null);
      setError(null);
      setConflicts([]);
    }
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
    setError(null);
    setConflicts([]);
    if (!sessionIds.length || !roomId) {
      setError("Please select sessions and a room");
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
        onError: (e) => {
          const failure = classifyError(e);
          if (failure.kind === "conflict") setConflicts(failure.conflicts);
          notifyError("Failed to set the room", ("message" in failure && failure.message) || "Please try again.");
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Set Room" size="lg">
      <Stack>
        <Text size="sm">{sessionIds.length} session(s) selected.</Text>
        <Select
          label="Room"
          placeholder={availability.isFetching ? "Checking which rooms are free..." : "Select a room"}
          searchable
          nothingFoundMessage="No rooms recorded yet"
          data={options.map(({ value, label }) => ({ value, label }))}
          value={roomId}
          onChange={setRoomId}
        />
        {error ? (
          <Notice color="red" role="alert">
            {error}
          </Notice>
        ) : null}
        <ConflictAlert title="Room refused: it is booked at one of these times" conflicts={conflicts} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={setRoom.isPending}>
            Set Room
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
