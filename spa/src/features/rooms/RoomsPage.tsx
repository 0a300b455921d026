/**
 * Rooms (/rooms, issue 19): the organization's rooms with campus, type, capacity, features and how many
 * sessions use them; administrators add, edit and delete, everyone reads. Linked from the Organization
 * page and the timetables.
 */
import { ActionIcon, Anchor, Button, Card, Group, Select, Table, Text, TextInput } from "@mantine/core";
import { Link } from "react-router";
import { modals } from "@mantine/modals";
import { IconEdit, IconPlus, IconSearch, IconTrash } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { EmptyState, ErrorState } from "../../components/States";
import { Tag } from "../../components/Tag";
import { classifyError } from "../../components/Notify";
import { useCurrentUser } from "../../lib/auth";
import { ROOM_TYPES, useDeleteRoom, useRooms, type Room } from "./api";
import { RoomFormModal } from "./components/RoomFormModal";
import { RoomWeekButton } from "./components/RoomWeek";
import { SubscribeButton } from "../calendar-feeds/SubscribeButton";

export default function RoomsPage() {
  const { isAdmin } = useCurrentUser();
  const { data, isLoading, isError } = useRooms();
  const remove = useDeleteRoom();
  const [search, setSearch] = useState("");
  const [type, setType] = useState<string | null>(null);
  const [editing, setEditing] = useState<Room | null>(null);
  const [opened, setOpened] = useState(false);
  const rows = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (data ?? []).filter(
      (r) => (!type || r.type === type) && (!term || [r.code, r.name, r.campus?.name ?? "", ...r.features].some((t) => t.toLowerCase().includes(term))),
    );
  }, [data, search, type]);
  const open = (room: Room | null) => {
    setEditing(room);
    setOpened(true);
  };
  const confirmDelete = (room: Room) =>
    modals.openConfirmModal({
      title: "Delete Room",
      children: <Text size="sm">Delete the room {room.code}? Sessions keep their room text.</Text>,
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(room.id, {
          onSuccess: () => notifySuccess("Room deleted successfully"),
          onError: (e) => {
            const f = classifyError(e);
            notifyError("Failed to delete room", ("message" in f && f.message) || "Please try again.");
          },
        }),
    });

  return (
    <>
      <PageHeader
        title="Rooms"
        subtitle="Teaching spaces of the campuses: capacity, type and features"
        actions={
          isAdmin ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
              Add Room
            </Button>
          ) : null
        }
      />
      {isLoading ? (
        <Text>Loading rooms...</Text>
      ) : isError ? (
        <ErrorState message="Failed to load rooms. Please try again." />
      ) : !data?.length ? (
        <EmptyState title="No rooms yet" description="Rooms are made from the room names your sessions use; administrators can add more." />
      ) : (
        <Card withBorder>
          <Group mb="md" align="flex-end">
            <TextInput
              label="Search rooms"
              placeholder="Code, name, campus or feature"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: "100%", sm: 320 }}
            />
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
          <Table.ScrollContainer minWidth={760}>
            <Table striped data-testid="rooms-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Campus</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Capacity</Table.Th>
                  <Table.Th>Features</Table.Th>
                  <Table.Th>Sessions</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id} data-testid="room-row">
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {r.code}
                      </Text>
                      {!r.isActive ? <Tag color="gray">Inactive</Tag> : null}
                    </Table.Td>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{r.campus?.name ?? "-"}</Table.Td>
                    <Table.Td>{ROOM_TYPES[r.type] ?? r.type}</Table.Td>
                    <Table.Td>{r.capacity ?? "-"}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {r.features.map((t) => (
                          <Tag key={t} color="gray" tt="none">
                            {t}
                          </Tag>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {r.sessionCount ? (
                        <Anchor component={Link} to={`/timetables?roomId=${r.id}`} aria-label={`${r.sessionCount} sessions: timetable of ${r.code}`}>
                          {r.sessionCount}
                        </Anchor>
                      ) : (
                        0
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <RoomWeekButton room={r} />
                        <SubscribeButton target={{ roomId: r.id }} name={`room ${r.code}`} compact />
                        {isAdmin ? (
                          <>
                            <ActionIcon variant="subtle" aria-label={`Edit room ${r.code}`} onClick={() => open(r)}>
                              <IconEdit size={16} />
                            </ActionIcon>
                            <ActionIcon variant="subtle" color="red" aria-label={`Delete room ${r.code}`} onClick={() => confirmDelete(r)}>
                              <IconTrash size={16} />
                            </ActionIcon>
                          </>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <RoomFormModal opened={opened} onClose={() => setOpened(false)} room={editing} />
    </>
  );
}
