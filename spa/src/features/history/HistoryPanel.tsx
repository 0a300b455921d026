import { Card, Group, Stack, Text, Title } from "@mantine/core";
import { activityTime, useActivity } from "./api";
import { UndoCell } from "./UndoButton";

/** "History" of one record (issue 16): who changed it and when, newest first, live. */
export function HistoryPanel({ id, title = "History" }: { id: string; title?: string }) {
  const { data, isLoading } = useActivity({ id, pageSize: 20 });
  const items = data?.items ?? [];
  return (
    <Card withBorder radius="md" padding="lg" data-testid="history-panel">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {isLoading ? (
        <Text size="sm">Loading history...</Text>
      ) : items.length === 0 ? (
        <Text size="sm">No changes recorded yet.</Text>
      ) : (
        <Stack gap={6}>
          {items.map((a) => (
            <Group key={a.id} data-testid="history-row" justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text size="sm">{a.summary}</Text>
                <Text size="xs" c="dimmed">
                  {activityTime(a.at)}
                </Text>
              </div>
              <UndoCell activity={a} />
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
