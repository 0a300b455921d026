import { Card, Group, Pagination, Select, Stack, Text, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import { DataTable } from "../../components/DataTable";
import { PageHeader } from "../../components/PageHeader";
import { activityTime, ENTITY_LABELS, useActivity } from "./api";
import { UndoCell } from "./UndoButton";

const PAGE_SIZE = 50;

/** Organization-wide activity (/activity, admin only; issue 16): every write, newest first, live. */
export default function ActivityPage() {
  const [entity, setEntity] = useState<string>("");
  const [page, setPage] = useState(1);
  const { data, isLoading } = useActivity({ entity, page, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  return (
    <>
      <PageHeader
        title="Activity"
        subtitle="Who changed what, and when"
        actions={
          <Select
            label="Area"
            w={220}
            data={[{ value: "", label: "Everything" }, ...Object.entries(ENTITY_LABELS).map(([value, label]) => ({ value, label }))]}
            value={entity}
            onChange={(v) => {
              setEntity(v ?? "");
              setPage(1);
            }}
            allowDeselect={false}
          />
        }
      />
      <Card withBorder radius="md" padding="lg">
        {isLoading ? (
          <Text size="sm">Loading activity...</Text>
        ) : (
          <Stack>
            <DataTable
              striped
              data-testid="activity-table"
              rows={data?.items ?? []}
              rowKey={(a) => a.id}
              columns={[
                { label: "When", cell: (a) => activityTime(a.at) },
                { label: "Who", cell: (a) => a.actorName },
                { label: "What", cell: (a) => a.summary },
                { label: "Undo", header: <VisuallyHidden>Undo</VisuallyHidden>, cell: (a) => <UndoCell activity={a} /> },
              ]}
            />
            {data && data.items.length === 0 ? <Text size="sm">No changes recorded yet.</Text> : null}
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
    </>
  );
}
