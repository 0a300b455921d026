/**
 * The room picker of the session form and of the bulk "Set Room" (docs/adr/0018, 0019): which rooms are
 * free at a session's times (GET /api/rooms/availability) or at the times of every selected session
 * (POST /api/rooms/availability), grouped by campus.
 */
import { useQuery } from "@tanstack/react-query";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { ROOM_TYPES, type Room } from "@/lib/entities/rooms";
import { roots } from "@/lib/queryKeys";

export type RoomAvailability = components["schemas"]["RoomAvailabilityOut"];

/** Which rooms are free on a date at a time (the session form's picker); off without a date. */
export function useRoomAvailability(date: string | null | undefined, startTime: string, endTime: string, excludeSessionId?: string) {
  const valid = !!date && /^\d{2}:\d{2}:\d{2}$/.test(startTime) && /^\d{2}:\d{2}:\d{2}$/.test(endTime) && endTime > startTime;
  return useQuery({
    queryKey: [...roots.rooms, "availability", date, startTime, endTime, excludeSessionId ?? null],
    queryFn: async (): Promise<RoomAvailability[]> => {
      const { data } = await client.GET("/api/rooms/availability", {
        params: { query: { date: date!, startTime, endTime, excludeSessionId: excludeSessionId ?? undefined } },
      });
      return data!;
    },
    enabled: valid,
    staleTime: 0, // bookings change with every session event: ask again whenever a picker opens
  });
}
export type RoomSessionsAvailability = components["schemas"]["RoomSessionsAvailabilityOut"];

/** Which rooms are free at the times of every selected session (the bulk "Set Room" picker). */
export function useRoomAvailabilityForSessions(sessionIds: string[], enabled: boolean) {
  return useQuery({
    queryKey: [...roots.rooms, "availability", "sessions", [...sessionIds].sort()],
    queryFn: async (): Promise<RoomSessionsAvailability[]> => {
      const { data } = await client.POST("/api/rooms/availability", { body: { sessionIds } });
      return data!;
    },
    enabled: enabled && sessionIds.length > 0,
    staleTime: 0,
  });
}

/** A room's state at the times asked (free, or booked by what). */
export interface RoomState {
  free: boolean;
  bookedBy?: string | null;
  /** How many of the asked sessions it is booked for (the bulk picker). */
  busyFor?: number;
}

export interface RoomOption {
  value: string;
  label: string;
  disabled: boolean;
  room: Room;
  state?: RoomState;
}

/**
 * The rooms a picker offers (ADR 0018): active rooms grouped by campus, the group's own campus
 * (`homeCampusId`) first and labelled so, the other campuses after it each under its name; in each,
 * free rooms first. A room booked at the times asked is disabled and says what holds it. `optionValue`
 * gives an option's value (the room's id, or its code for a free-text field).
 */
export function roomPickerGroups(
  rooms: Room[],
  states: Map<string, RoomState>,
  homeCampusId: string | null | undefined,
  optionValue: (room: Room) => string = (r) => r.id,
  total = 1,
): { group: string; items: RoomOption[] }[] {
  const groups = new Map<string, { group: string; order: number; items: RoomOption[] }>();
  for (const room of rooms.filter((r) => r.isActive)) {
    const home = !!homeCampusId && room.campusId === homeCampusId;
    const name = room.campus?.name ?? "No campus";
    const key = room.campusId ?? "";
    const group = home ? `${name} (this group's campus)` : homeCampusId ? `Other campus: ${name}` : name;
    if (!groups.has(key)) groups.set(key, { group, order: home ? 0 : room.campusId ? 1 : 2, items: [] });
    const state = states.get(room.id);
    const what = [room.name || ROOM_TYPES[room.type], room.capacity ? `${room.capacity} seats` : null].filter(Boolean).join(" · ");
    const when = !state
      ? ""
      : state.free
        ? "free"
        : total > 1 && state.busyFor
          ? `booked for ${state.busyFor} of ${total}: ${state.bookedBy ?? "another session"}`
          : `booked: ${state.bookedBy ?? "another session"}`;
    groups
      .get(key)!
      .items.push({ value: optionValue(room), label: `${room.code} · ${what}${when ? ` · ${when}` : ""}`, disabled: !!state && !state.free, room, state });
  }
  return [...groups.values()]
    .sort((a, b) => a.order - b.order || a.group.localeCompare(b.group))
    .map(({ group, items }) => ({ group, items: items.sort((x, y) => Number(x.disabled) - Number(y.disabled) || x.room.code.localeCompare(y.room.code)) }));
}
