import { Alert, Button, Card, Center, Group, Loader, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ApiError } from "@/lib/api";
import { queryClient } from "@/lib/queryClient";

/** The skeleton grid shown while a card list loads (docs/behaviour/hours.md: 6 cards, 3 in the manage dialog). */
export function CardGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="loading-skeleton">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list rendered whole from one answer; messages may repeat and have no identity
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

/** Asks again for every query of the page that failed (the default Retry of a list that did not load). */
const retryFailed = () => queryClient.refetchQueries({ type: "active", predicate: (q) => q.state.status === "error" });

/** A list or section that failed to load: its message and Retry (by default, every failed query again; ADR 0018). */
export function ErrorState({ message, onRetry = retryFailed }: { message: string; onRetry?: () => unknown }) {
  return (
    <Alert color="red" title="Error" role="alert">
      <Stack gap="sm" align="flex-start">
        <span>{message}</span>
        {onRetry ? (
          <Button size="compact-sm" variant="light" color="red" onClick={() => void onRetry()}>
            Retry
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/**
 * A record page that could not load (ADR 0016): a 404 says the record was not found (the server's
 * "Teacher not found") with a way back to its list; anything else keeps the page's "Failed to load ..."
 * message and offers Retry.
 */
export function RecordLoadError({
  error,
  message,
  onRetry,
  back,
}: {
  error: unknown;
  message: string;
  onRetry: () => void;
  back: { to: string; label: string };
}) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <Alert color="yellow" title="Not found" role="alert" data-testid="record-not-found">
        <Stack gap="sm" align="flex-start">
          <span>{error.serverMessage || "This record was not found."} It may have been deleted, or the link is wrong.</span>
          <Group>
            <Button size="compact-sm" variant="light" component={Link} to={back.to}>
              {back.label}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  return <ErrorState message={message} onRetry={onRetry} />;
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
