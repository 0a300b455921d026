import { Card, Text } from "@mantine/core";
import type { ReactNode } from "react";

export function StatCard({ label, value, extra }: { label: string; value: ReactNode; extra?: ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {extra}
    </Card>
  );
}
