import { Badge, Loader, Modal, Stack, Table, Text, Title } from "@mantine/core";
import { Notice } from "../Notice";
import { activityTime, useActivityDetail } from "@/lib/entities/activity";
import { UndoCell } from "./UndoButton";

const CHANGE_COLOR: Record<string, string> = { created: "green", updated: "blue", deleted: "red" };

/** The field-level detail of one activity (GET /api/activity/{id}), opened from its history row. */
export function ActivityDetailModal({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { data, isLoading, isError, refetch } = useActivityDetail(id);
  return (
    <Modal opened={!!id} onClose={onClose} title="What changed" size="lg">
      {isLoading ? (
        <Loader aria-label="Loading the change" />
      ) : isError || !data ? (
        <Notice color="red">
          Failed to load the change.{" "}
          <button type="button" onClick={() => refetch()}>
            Retry
          </button>
        </Notice>
      ) : (
        <Stack data-testid="activity-detail">
          <div>
            <Text fw={600}>{data.summary}</Text>
            <Text size="sm" c="dimmed">
              {activityTime(data.at)}
            </Text>
          </div>
          {data.changes.length === 0 ? <Text size="sm">No record changes were captured for this activity.</Text> : null}
          {data.changes.map((c) => (
            <Stack key={`${c.entity}-${c.id}`} gap={4} data-testid="activity-detail-row">
              <Title order={3} size="h6">
                {c.entity} {c.label}{" "}
                <Badge size="xs" variant="light" color={CHANGE_COLOR[c.change] ?? "gray"}>
                  {c.change}
                </Badge>
              </Title>
              {c.fields.length ? (
                <Table.ScrollContainer minWidth={360}>
                  <Table withTableBorder striped fz="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Field</Table.Th>
                        <Table.Th>Before</Table.Th>
                        <Table.Th>After</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {c.fields.map((f) => (
                        <Table.Tr key={f.field}>
                          <Table.Td>{f.field}</Table.Td>
                          <Table.Td>{f.before ?? "—"}</Table.Td>
                          <Table.Td>{f.after ?? "—"}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              ) : null}
            </Stack>
          ))}
          {data.rowsTotal > data.changes.length ? (
            <Text size="sm" c="dimmed">
              {data.rowsTotal - data.changes.length} more records changed.
            </Text>
          ) : null}
          <div>
            <UndoCell activity={data} />
          </div>
        </Stack>
      )}
    </Modal>
  );
}
