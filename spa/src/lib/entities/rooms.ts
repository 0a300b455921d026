/** Rooms as several screens read them (GET /api/rooms; docs/adr/0019): the rooms screen, the block group and schedule forms' room types, the session form's picker. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type Room = components["schemas"]["RoomOut"];

export const ROOM_TYPES: Record<string, string> = {
  classroom: "Classroom",
  computer_lab: "Computer lab",
  workshop: "Workshop",
  kitchen: "Kitchen",
  online: "Online",
  other: "Other",
};

async function fetchRooms(): Promise<Room[]> {
  const { data } = await client.GET("/api/rooms");
  return data!;
}
export const roomsQueryOptions = () => queryOptions({ queryKey: [...roots.rooms, "list"], queryFn: fetchRooms });
export const useRooms = () => useQuery(roomsQueryOptions());
