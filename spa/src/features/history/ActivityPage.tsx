import { Button, Card, Group, Pagination, Select, SimpleGrid, Stack, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import { DataTable } from "@/components/DataTable";
import { PageHeader } from "@/components/PageHeader";
import { ErrorState } from "@/components/States";
import { useAdminUsers } from "@/lib/entities/users";
import { ActivityDetailModal } from "@/components/history/ActivityDetailModal";
import { activityTime, ENTITY_LABELS, useActivity } from "@/lib/entities/activity";
import { UndoCell } from "@/components/history/UndoButton";

const PAGE_SIZE = 50;

/**
 * Organization-wide activity (/activity, admin only; ADR 0011): every write, newest first, live. Filters by
 * area (every entity, rooms too), person and days; a row's summary opens what it changed field by field.
 */
export default function ActivityPage() {
  const [entity, setEntity] = useState<string>("");
  const [actorId, setActorId] = useState<string>("");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const users = useAdminUsers();
  const { data, isLoading, isError, refetch } = useActivity({ entity, actorId, start, end, page, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  const filtered =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  return (
    <>
      <PageHeader title="Activity" subtitle="Who changed what, and when" />
      <Card withBorder radius="md" padding="lg" mb="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <Select
            label="Area"
            data={[{ value: "", label: "Everything" }, ...Object.entries(ENTITY_LABELS).map(([value, label]) => ({ value, label }))]}
            value={entity}
            onChange={(v) => filtered(setEntity)(v ?? "")}
            allowDeselect={false}
          />
          <Select
            label="Person"
            searchable
            data={[
              { value: "", label: "Everyone" },
              ...(users.data ?? []).map((u) => ({ value: u.id, label: `${u.firstName ?? ""} ${u.lastName ?? ""}`.trim() || u.email })),
            ]}
            value={actorId}
            onChange={(v) => filtered(setActorId)(v ?? "")}
            allowDeselect={false}
          />
          <TextInput type="date" label="From" value={start} onChange={(e) => filtered(setStart)(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={end} onChange={(e) => filtered(setEnd)(e.currentTarget.value)} />
        </SimpleGrid>
      </Card>
      <Card withBorder radius="md" padding="lg">
        {isLoading ? (
          <Text size="sm">Loading activity...</Text>
        ) : isError ? (
          <ErrorState message="Failed to load activity" onRetry={() => refetch()} />
        ) : (
          <Stack>
            {data && data.items.length === 0 ? <Text size="sm">No changes recorded yet.</Text> : null}
            <DataTable
              hidden={!data?.items.length}
              striped
              data-testid="activity-table"
              rows={data?.items ?? []}
              rowKey={(a) => a.id}
              minWidth={560}
              scrollProps={{ tabIndex: 0, "aria-label": "Activity" } as never}
              rowProps={() => ({ "data-testid": "activity-row" })}
              columns={[
                { label: "When", cell: (a) => activityTime(a.at), td: { style: { whiteSpace: "nowrap" } } },
                { label: "Who", cell: (a) => a.actorName },
                {
                  label: "What",
                  cell: (a) => (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      px={0}
                      styles={{ label: { whiteSpace: "normal", textAlign: "left" } }}
                      onClick={() => setOpen(a.id)}
                    >
                      {a.summary}
                    </Button>
                  ),
                },
                { label: "Undo", header: <VisuallyHidden>Undo</VisuallyHidden>, cell: (a) => <UndoCell activity={a} /> },
              ]}
            />
            <Group justify="flex-end">
              <Pagination
                total={pages}
                value={page}
                onChange={setPage}
                size="sm"
                getControlProps={(control) => ({ "aria-label": `${control[0].toUpperCase()}${control.slice(1)} page` })}
              />
            </Group>
          </Stack>
        )}
      </Card>
      <ActivityDetailModal id={open} onClose={() => setOpen(null)} />
    </>
  );
}
