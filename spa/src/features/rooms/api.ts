/**
 * Rooms (ADR 0019): GET/POST /api/rooms, GET/PUT/DELETE /api/rooms/{id}. Everyone reads;
 * administrators write. A session's room text that matches a room's code (case and spacing ignored)
 * is linked to it by the server.
 */
import { z } from "zod";
import { client } from "@/lib/api";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";
import type { Room } from "@/lib/entities/rooms";

export { type Room, ROOM_TYPES, roomsQueryOptions, useRooms } from "@/lib/entities/rooms";

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

export async function fetchRoom(id: string): Promise<Room> {
  const { data } = await client.GET("/api/rooms/{room_id}", { params: { path: { room_id: id } } });
  return data!;
}

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
