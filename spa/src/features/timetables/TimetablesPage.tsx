import { Button, Card, Chip, Group, Paper, Select, Stack, Switch, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useRooms } from "@/lib/entities/rooms";
import { Tag } from "@/components/Tag";
import { IconDoor, IconDownload, IconFilterOff, IconPlus, IconUpload, IconUserPlus } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { LivePresence } from "@/components/LivePresence";
import { confirmAndMutate, ListStates, useEditDialog } from "@/components/ListPage";
import { notifyError, notifySuccess } from "@/components/Notify";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState, ErrorState } from "@/components/States";
import { useBlockGroupChoices, useConflicts, useDeleteSession, useTeacherChoices, useTimetables, type Session, type TimetableFilters } from "./api/timetables";
import { BulkAllocateModal } from "./components/BulkAllocateModal";
import { BulkRoomModal } from "./components/BulkRoomModal";
import { exportFileName, exportSessions } from "./components/exportCsv";
import { ImportModal } from "./components/ImportModal";
import { SessionFormModal } from "./components/SessionFormModal";
import { SessionCards, SessionTable } from "./components/SessionTable";
import { SuggestAllocationButton } from "./auto-allocation";

/** Timetable sessions (/timetables): docs/behaviour/timetables.md. */
export default function TimetablesPage() {
  const location = useLocation();
  const phone = useMediaQuery("(max-width: 48em)") ?? false;
  // /timetables?roomId= opens a room's timetable (the Rooms page links here; ADR 0019).
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<TimetableFilters>({ blockGroupId: null, teacherId: null, roomId: params.get("roomId"), hidePast: true });
  const rooms = useRooms();
  const { data, isLoading, isError, isFetching } = useTimetables(filters);
  const conflicts = useConflicts(filters);
  const groups = useBlockGroupChoices();
  const teachers = useTeacherChoices();
  const remove = useDeleteSession();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allocateOpen, setAllocateOpen] = useState(false);
  const [roomOpen, setRoomOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const dialog = useEditDialog<Session>();

  const sessions = useMemo(() => data ?? [], [data]);
  const visibleIds = useMemo(() => new Set(sessions.map((s) => s.id)), [sessions]);
  const selectedIds = [...selected].filter((id) => visibleIds.has(id));
  const conflictMessages = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const c of conflicts.data ?? []) for (const id of c.sessionIds) map.set(id, [...(map.get(id) ?? []), c.message]);
    return map;
  }, [conflicts.data]);
  const conflictCount = sessions.filter((s) => s.conflicts?.length).length;

  const set = (patch: Partial<TimetableFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setSelected(new Set());
  };
  const group = groups.data?.find((g) => g.id === filters.blockGroupId);
  const teacher = teachers.data?.find((t) => t.id === filters.teacherId);
  const quick = (groups.data ?? []).filter((g) => g.status === "active" || g.status === "planned").slice(0, 8);

  const doExport = () => {
    if (!sessions.length) {
      notifyError("No Data", "There are no sessions to export.");
      return;
    }
    exportSessions(
      sessions,
      exportFileName({
        blockGroupCode: group?.code,
        teacherName: teacher ? `${teacher.firstName} ${teacher.lastName}` : undefined,
        futureOnly: filters.hidePast,
      }),
    );
    notifySuccess(`Exported ${sessions.length} sessions`);
  };
  const confirmDelete = (s: Session) =>
    confirmAndMutate(remove, s.id, {
      title: "Delete Timetable Entry",
      message: `Delete the session of ${s.unit.code} on ${s.actualDate}? You can undo it from the message that follows or from History.`,
      done: "Timetable entry deleted successfully",
      failed: ["Error", "Failed to delete timetable entry"],
    });

  return (
    <>
      <PageHeader title="Timetables" subtitle="Timetable sessions, teacher allocation, import and export" actions={<LivePresence path={location.pathname} />} />
      <Paper withBorder p="md" mb="md">
        <Stack gap="sm">
          {quick.length ? (
            <Group gap="xs">
              <Text size="sm" fw={600}>
                Quick selection
              </Text>
              <Chip.Group value={filters.blockGroupId ?? ""} onChange={(v) => set({ blockGroupId: (v as string) || null })}>
                {quick.map((g) => (
                  <Chip color="indigo.9" key={g.id} value={g.id} size="xs">
                    {g.code}
                  </Chip>
                ))}
              </Chip.Group>
            </Group>
          ) : null}
          <Group align="flex-end" gap="md">
            <Select
              label="Block Group"
              placeholder="All block groups"
              searchable
              clearable
              w={300}
              data={(groups.data ?? []).map((g) => ({ value: g.id, label: `${g.code} - ${g.name}` }))}
              value={filters.blockGroupId}
              onChange={(v) => set({ blockGroupId: v })}
            />
            <Select
              label="Teacher"
              placeholder="All teachers"
              searchable
              clearable
              w={240}
              data={(teachers.data ?? []).map((t) => ({ value: t.id, label: `${t.firstName} ${t.lastName}` }))}
              value={filters.teacherId}
              onChange={(v) => set({ teacherId: v })}
            />
            <Select
              label="Room"
              placeholder="All rooms"
              searchable
              clearable
              w={200}
              data={(rooms.data ?? []).map((r) => ({ value: r.id, label: r.capacity ? `${r.code} (${r.capacity} seats)` : r.code }))}
              value={filters.roomId ?? null}
              onChange={(v) => set({ roomId: v })}
            />
            <Switch label="Hide past sessions" checked={filters.hidePast} onChange={(e) => set({ hidePast: e.currentTarget.checked })} mb={8} />
            <Button
              variant="subtle"
              leftSection={<IconFilterOff size={16} />}
              onClick={() => set({ blockGroupId: null, teacherId: null, roomId: null, hidePast: true })}
            >
              Clear Filters
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Tag variant="light" size="lg" data-testid="session-count">
            {sessions.length} sessions
          </Tag>
          {selectedIds.length ? (
            <Tag variant="filled" size="lg">
              {selectedIds.length} selected
            </Tag>
          ) : null}
          {conflictCount ? (
            <Tag color="red" variant="light" size="lg">
              {conflictCount} with conflicts
            </Tag>
          ) : null}
          {isFetching && !isLoading ? (
            <Text size="xs" c="dimmed">
              Refreshing...
            </Text>
          ) : null}
        </Group>
        <Group gap="xs">
          <SuggestAllocationButton
            scope={selectedIds.length ? { sessionIds: selectedIds } : { blockGroupId: filters.blockGroupId ?? undefined }}
            disabled={!selectedIds.length && !filters.blockGroupId}
          />
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAllocateOpen(true)} disabled={!selectedIds.length}>
            Allocate Teacher
          </Button>
          <Button variant="light" leftSection={<IconDoor size={16} />} onClick={() => setRoomOpen(true)} disabled={!selectedIds.length}>
            Set Room
          </Button>
          <Button variant="light" leftSection={<IconUpload size={16} />} onClick={() => setImportOpen(true)}>
            Import
          </Button>
          <Button variant="light" leftSection={<IconDownload size={16} />} onClick={doExport}>
            Export CSV
          </Button>
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => dialog.open(null)}>
            Add Session
          </Button>
        </Group>
      </Group>
      <ListStates
        rows={data}
        loading={
          isLoading && (
            <Card withBorder>
              <Text>Loading sessions...</Text>
            </Card>
          )
        }
        failed={isError && <ErrorState message="Failed to load timetables. Please try again." />}
        empty={<EmptyState title="No sessions found" description="Change the filters, generate a schedule from a block group, or import a timetable." />}
      >
        {() => (
          <SessionView
            phone={phone}
            sessions={sessions}
            selected={selected}
            conflictMessages={conflictMessages}
            onToggle={(id) =>
              setSelected((prev) => {
                const next = new Set(prev);
                if (next.has(id)) next.delete(id);
                else next.add(id);
                return next;
              })
            }
            onToggleAll={(checked) => setSelected(checked ? new Set(sessions.filter((s) => s.status !== "cancelled").map((s) => s.id)) : new Set())}
            onEdit={dialog.open}
            onDelete={confirmDelete}
          />
        )}
      </ListStates>
      <BulkAllocateModal opened={allocateOpen} onClose={() => setAllocateOpen(false)} sessionIds={selectedIds} onAllocated={() => setSelected(new Set())} />
      <BulkRoomModal opened={roomOpen} onClose={() => setRoomOpen(false)} sessionIds={selectedIds} sessions={data} onDone={() => setSelected(new Set())} />
      <ImportModal opened={importOpen} onClose={() => setImportOpen(false)} />
      <SessionFormModal opened={dialog.opened} onClose={dialog.close} session={dialog.editing} defaultBlockGroupId={filters.blockGroupId} />
    </>
  );
}

/** The sessions as a table, or as stacked cards on a phone (ADR 0018). */
function SessionView({ phone, onToggleAll, ...props }: Parameters<typeof SessionTable>[0] & { phone: boolean }) {
  return phone ? <SessionCards {...props} /> : <SessionTable {...props} onToggleAll={onToggleAll} />;
}
