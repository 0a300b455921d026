import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ActivityDetailModal } from "./ActivityDetailModal";
import { activityTime, useActivity } from "@/lib/entities/activity";
import { UndoCell } from "./UndoButton";

/** "History" of one record (ADR 0012): who changed it and when, newest first, live. */
export function HistoryPanel({ id, title = "History" }: { id: string; title?: string }) {
  const { data, isLoading } = useActivity({ id, pageSize: 20 });
  const items = data?.items ?? [];
  const [open, setOpen] = useState<string | null>(null);
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
              <div style={{ minWidth: 0 }}>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  px={0}
                  h="auto"
                  styles={{ label: { whiteSpace: "normal", textAlign: "left" } }}
                  onClick={() => setOpen(a.id)}
                >
                  {a.summary}
                </Button>
                <Text size="xs" c="dimmed">
                  {activityTime(a.at)}
                </Text>
              </div>
              <UndoCell activity={a} />
            </Group>
          ))}
        </Stack>
      )}
      <ActivityDetailModal id={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
