import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { useCallback, useEffect, useState } from "react";
import { serverAnswers } from "@/lib/reachability";
import { ServerUnreachable, useRetryEvery } from "./ServerUnreachable";
import { useNavigate, useRouteError } from "react-router";

const RELOADED_KEY = "blockplan.chunkReload";

/** A code chunk that could not be loaded (offline, or gone after a deploy), as browsers word it. */
export function isChunkError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error ?? "");
  return /dynamically imported module|Importing a module script failed|Failed to fetch|ChunkLoadError|error loading dynamically imported module/i.test(text);
}

/**
 * The error screen of a route, inside the shell (ADR 0016): a plain message and Retry instead of React
 * Router's developer page. Offline, it says so and reloads by itself when the connection returns. A
 * missing code chunk while online (a new version was deployed) reloads the page once.
 */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const chunk = isChunkError(error);
  const offline = typeof navigator !== "undefined" && navigator.onLine === false;
  // A chunk that failed while the browser thinks it is online: a new deploy, or the server is down. Only
  // a server that answers means a deploy (reload once); otherwise wait for it (ADR 0018): a reload
  // against a dead server shows the browser's own "This site can't be reached" page.
  const [unreachable, setUnreachable] = useState(false);
  const retryWhenBack = useCallback(async () => {
    if (await serverAnswers()) window.location.reload();
  }, []);
  useRetryEvery(retryWhenBack, unreachable);

  useEffect(() => {
    const reload = () => window.location.reload();
    window.addEventListener("online", reload);
    let cancelled = false;
    // Once per page and minute: a chunk still missing after the reload shows the message instead of looping.
    const [path, at] = (sessionStorage.getItem(RELOADED_KEY) ?? "|0").split("|");
    if (chunk && !offline && (path !== window.location.pathname || Date.now() - Number(at) > 60_000)) {
      void serverAnswers().then((answers) => {
        if (cancelled) return;
        if (!answers) return setUnreachable(true);
        sessionStorage.setItem(RELOADED_KEY, `${window.location.pathname}|${Date.now()}`);
        reload();
      });
    }
    return () => {
      cancelled = true;
      window.removeEventListener("online", reload);
    };
  }, [chunk, offline]);

  if (unreachable && !offline) return <ServerUnreachable retry={retryWhenBack} compact />;
  return (
    <Alert color={offline ? "yellow" : "red"} title={offline ? "You are offline" : "This page could not be shown"} role="alert" data-testid="route-error">
      <Stack gap="sm">
        <Text size="sm">
          {offline
            ? "This page could not be loaded without a connection. It will load by itself when the connection returns."
            : chunk
              ? "A new version of Blockplan may have been installed. Reload to continue."
              : "Something went wrong while showing this page. Try again; if it keeps happening, tell your administrator."}
        </Text>
        <Group gap="sm">
          <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
            Retry
          </Button>
          <Button variant="default" onClick={() => navigate("/")}>
            Go to Dashboard
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
