import { Alert, Center, Loader, Stack, Text } from "@mantine/core";
import { IconPlugConnectedX } from "@tabler/icons-react";
import { useEffect } from "react";
import { RETRY_MS, UNREACHABLE_TEXT } from "@/lib/reachability";

/** Calls `retry` every RETRY_MS while mounted: what keeps a page that cannot reach the server trying. */
export function useRetryEvery(retry: () => unknown, active = true) {
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => void retry(), RETRY_MS);
    const online = () => void retry();
    window.addEventListener("online", online);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("online", online);
    };
  }, [retry, active]);
}

/**
 * The session check could not reach the server (a 5xx or no answer): not signed out. Says so and asks
 * again every few seconds (`retry`), so the page comes back by itself when the server does (ADR 0018).
 */
export function ServerUnreachable({ retry, compact = false }: { retry: () => unknown; compact?: boolean }) {
  useRetryEvery(retry);
  const notice = (
    <Alert color="yellow" variant="light" icon={<IconPlugConnectedX size={18} aria-hidden />} role="status" data-testid="server-unreachable">
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {UNREACHABLE_TEXT}
        </Text>
        <Text size="sm">Your work is not lost; this page comes back by itself when the server answers.</Text>
      </Stack>
    </Alert>
  );
  if (compact) return notice;
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={520}>
        <Loader aria-label="Retrying" />
        {notice}
      </Stack>
    </Center>
  );
}
