import { Alert, Card, Center, Loader, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The skeleton grid shown while a card list loads (delivery.md §9: 6 cards, 3 in the manage dialog). */
export function CardGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="loading-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} withBorder padding="lg">
          <Skeleton height={18} width="60%" mb="sm" />
          <Skeleton height={12} mb={6} />
          <Skeleton height={12} width="80%" />
        </Card>
      ))}
    </SimpleGrid>
  );
}

export function EmptyState({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <Card withBorder padding="xl">
      <Stack align="center" gap="xs">
        <Title order={3} size="h4">
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" ta="center">
            {description}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Card>
  );
}

export function ErrorState({ message }: { message: string }) {
  return (
    <Alert color="red" title="Error" role="alert">
      {message}
    </Alert>
  );
}

export function FullPageLoader({ label = "Loading..." }: { label?: string }) {
  return (
    <Center h="60vh">
      <Stack align="center" gap="sm">
        <Loader aria-label={label} />
        <Text>{label}</Text>
      </Stack>
    </Center>
  );
}
