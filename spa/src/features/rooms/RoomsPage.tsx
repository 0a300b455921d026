/**
 * Rooms (/rooms, ADR 0019): the organization's rooms with campus, type, capacity, features and how many
 * sessions use them; administrators add, edit and delete, everyone reads. Linked from the Organization
 * page and the timetables.
 */
import { Anchor, Box, Card, Group, Select, Text } from "@mantine/core";
import { Link, useSearchParams } from "react-router";
import { useMemo, useState } from "react";
import { DataTable } from "@/components/DataTable";
import { AddButton, confirmAndMutate, DeleteAction, EditAction, ListSearch, ListStates, useEditDialog } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState, ErrorState } from "@/components/States";
import { Tag } from "@/components/Tag";
import { useCurrentUser } from "@/lib/auth";
import { ROOM_TYPES, useDeleteRoom, useRooms, type Room } from "./api";
import { RoomFormModal } from "./components/RoomFormModal";
import { RoomWeekButton } from "./components/RoomWeek";
import { SubscribeButton } from "@/components/SubscribeButton";
import { CampusPlannerLinks, PlannerLink } from "@/components/PlannerLink";

export default function RoomsPage() {
  const { isAdmin } = useCurrentUser();
  const { data, isLoading, isError } = useRooms();
  const remove = useDeleteRoom();
  // The header search opens a room as /rooms?search=<code> (ADR 0018).
  const [params] = useSearchParams();
  const [search, setSearch] = useState(() => params.get("search") ?? "");
  const [type, setType] = useState<string | null>(null);
  const dialog = useEditDialog<Room>();
  const rows = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (data ?? []).filter(
      (r) => (!type || r.type === type) && (!term || [r.code, r.name, r.campus?.name ?? "", ...r.features].some((t) => t.toLowerCase().includes(term))),
    );
  }, [data, search, type]);
  const confirmDelete = (room: Room) =>
    confirmAndMutate(remove, room.id, {
      title: "Delete Room",
      message: `Delete the room ${room.code}? Sessions keep their room text.`,
      done: "Room deleted successfully",
      failed: "Failed to delete room",
    });

  return (
    <>
      <PageHeader
        title="Rooms"
        subtitle="Teaching spaces of the campuses: capacity, type and features"
        actions={isAdmin ? <AddButton onClick={() => dialog.open(null)}>Add Room</AddButton> : null}
      />
      <Box mb="md">
        <CampusPlannerLinks />
      </Box>
      <ListStates
        rows={data}
        loading={isLoading && <Text>Loading rooms...</Text>}
        failed={isError && <ErrorState message="Failed to load rooms. Please try again." />}
        empty={<EmptyState title="No rooms yet" description="Rooms are made from the room names your sessions use; administrators can add more." />}
      >
        {() => (
          <Card withBorder>
            <Group mb="md" align="flex-end">
              <ListSearch label="Search rooms" placeholder="Code, name, campus or feature" value={search} onChange={setSearch} />
              <Select
                label="Type"
                placeholder="All types"
                clearable
                data={Object.entries(ROOM_TYPES).map(([value, label]) => ({ value, label }))}
                value={type}
                onChange={setType}
                w={200}
              />
            </Group>
            <DataTable
              striped
              minWidth={760}
              data-testid="rooms-table"
              rows={rows}
              rowKey={(r) => r.id}
              rowProps={() => ({ "data-testid": "room-row" })}
              columns={[
                {
                  label: "Code",
                  cell: (r) => (
                    <>
                      <Text fw={600} size="sm">
                        {r.code}
                      </Text>
                      {!r.isActive ? <Tag color="gray">Inactive</Tag> : null}
                    </>
                  ),
                },
                { label: "Name", cell: (r) => r.name },
                { label: "Campus", cell: (r) => r.campus?.name ?? "-" },
                { label: "Type", cell: (r) => ROOM_TYPES[r.type] ?? r.type },
                { label: "Capacity", cell: (r) => r.capacity ?? "-" },
                {
                  label: "Features",
                  cell: (r) => (
                    <Group gap={4}>
                      {r.features.map((t) => (
                        <Tag key={t} color="gray" tt="none">
                          {t}
                        </Tag>
                      ))}
                    </Group>
                  ),
                },
                {
                  label: "Sessions",
                  cell: (r) =>
                    r.sessionCount ? (
                      <Anchor component={Link} to={`/timetables?roomId=${r.id}`} aria-label={`${r.sessionCount} sessions: timetable of ${r.code}`}>
                        {r.sessionCount}
                      </Anchor>
                    ) : (
                      0
                    ),
                },
                {
                  label: "Actions",
                  hideLabel: true,
                  cell: (r) => (
                    <Group gap={4} wrap="nowrap">
                      <RoomWeekButton room={r} />
                      <PlannerLink scope="room" id={r.id} name={`room ${r.code}`} compact />
                      <SubscribeButton target={{ roomId: r.id }} name={`room ${r.code}`} compact />
                      {isAdmin ? (
                        <>
                          <EditAction variant="subtle" label={`Edit room ${r.code}`} onClick={() => dialog.open(r)} />
                          <DeleteAction variant="subtle" label={`Delete room ${r.code}`} onClick={() => confirmDelete(r)} />
                        </>
                      ) : null}
                    </Group>
                  ),
                },
              ]}
            />
          </Card>
        )}
      </ListStates>
      <RoomFormModal opened={dialog.opened} onClose={dialog.close} room={dialog.editing} />
    </>
  );
}
