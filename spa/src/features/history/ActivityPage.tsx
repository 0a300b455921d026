import { Card, Group, Pagination, Select, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
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
            <Table striped data-testid="activity-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Undo</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(data?.items ?? []).map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>{activityTime(a.at)}</Table.Td>
                    <Table.Td>{a.actorName}</Table.Td>
                    <Table.Td>{a.summary}</Table.Td>
                    <Table.Td>
                      <UndoCell activity={a} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
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
