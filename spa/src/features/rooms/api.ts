/**
 * Rooms (ADR 0019): GET/POST /api/rooms, GET/PUT/DELETE /api/rooms/{id}. Everyone reads;
 * administrators write. A session's room text that matches a room's code (case and spacing ignored)
 * is linked to it by the server.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { client } from "../../lib/api";
import type { components } from "../../lib/api-schema";
import { roots } from "../../lib/queryKeys";
import { useRefreshingMutation } from "../../lib/refreshingMutation";

export type Room = components["schemas"]["RoomOut"];

export const ROOM_TYPES: Record<string, string> = {
  classroom: "Classroom",
  computer_lab: "Computer lab",
  workshop: "Workshop",
  kitchen: "Kitchen",
  online: "Online",
  other: "Other",
};

export const roomSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(50, "Code must be at most 50 characters"),
  name: z.string().trim().max(255, "Name must be at most 255 characters"),
  campusId: z.string().nullable(),
  capacity: z.union([
    z.literal(""),
    z.coerce.number<unknown>().int("Capacity must be a whole number").min(1, "Capacity must be at least 1").max(1000, "Capacity cannot exceed 1000"),
  ]),
  type: z.enum(["classroom", "computer_lab", "workshop", "kitchen", "online", "other"]),
  features: z.string(),
  isActive: z.boolean(),
});
export type RoomFormValues = z.input<typeof roomSchema>;
export type RoomInput = z.output<typeof roomSchema>;

export const roomValues = (r?: Room | null): RoomFormValues =>
  r
    ? {
        code: r.code,
        name: r.name,
        campusId: r.campusId ?? null,
        capacity: r.capacity ?? "",
        type: r.type as RoomFormValues["type"],
        features: r.features.join(", "),
        isActive: r.isActive,
      }
    : { code: "", name: "", campusId: null, capacity: "", type: "classroom", features: "", isActive: true };

/** The request body of a form: features as a list, an empty capacity as none. */
export const roomBody = (v: RoomInput) => ({
  code: v.code,
  name: v.name,
  campusId: v.campusId || null,
  capacity: v.capacity === "" || v.type === "online" ? null : v.capacity,
  type: v.type,
  features: v.features
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean),
  isActive: v.isActive,
});

async function fetchRooms(): Promise<Room[]> {
  const { data } = await client.GET("/api/rooms");
  return data!;
}
export async function fetchRoom(id: string): Promise<Room> {
  const { data } = await client.GET("/api/rooms/{room_id}", { params: { path: { room_id: id } } });
  return data!;
}

export const roomsQueryOptions = () => queryOptions({ queryKey: [...roots.rooms, "list"], queryFn: fetchRooms });

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

/** Which rooms are free at the times of every selected session (the bulk "Set Room" picker; ADR 0019). */
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
export const useRooms = () => useQuery(roomsQueryOptions());

export function useSaveRoom() {
  return useRefreshingMutation([roots.rooms, roots.timetables], async ({ room, values }: { room?: Room | null; values: RoomInput }): Promise<Room> => {
    const body = roomBody(values);
    const { data } = room
      ? await client.PUT("/api/rooms/{room_id}", { params: { path: { room_id: room.id } }, body, headers: { "If-Match": room.updatedAt } })
      : await client.POST("/api/rooms", { body });
    return data!;
  });
}

export function useDeleteRoom() {
  return useRefreshingMutation([roots.rooms], async (id: string) => {
    await client.DELETE("/api/rooms/{room_id}", { params: { path: { room_id: id } } });
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
