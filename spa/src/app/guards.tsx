import { Button, Card, Center, Code, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Navigate, useNavigate } from "react-router";
import { FullPageLoader } from "../components/States";
import { useCurrentUser } from "../lib/auth";

/** Protected pages: 'Loading...' with a spinner while the user loads; signed-out users go to /auth. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <FullPageLoader label="Loading..." />;
  if (!user) return <Navigate to="/auth" replace />;
  return <>{children}</>;
}

/** /auth, /setup and /first-time redirect a signed-in user to /. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <FullPageLoader label="Loading..." />;
  if (user) return <Navigate to="/" replace />;
  return <>{children}</>;
}

const DEFAULT_DENIED =
  "This page is restricted to administrators only. Please contact your system administrator if you need access.";

/** Admin-only pages: the Access Denied screen for role user (platform.md §2). */
export function RequireAdmin({ children, message = DEFAULT_DENIED }: { children: ReactNode; message?: string }) {
  const { isAdmin } = useCurrentUser();
  const navigate = useNavigate();
  if (isAdmin) return <>{children}</>;
  return (
    <Center mih="50vh">
      <Card withBorder padding="xl" maw={520}>
        <Stack align="center">
          <Title order={1} size="h2">
            Access Denied
          </Title>
          <Text ta="center">{message}</Text>
          <Button onClick={() => navigate(-1)}>Go Back</Button>
        </Stack>
      </Card>
    </Center>
  );
}

export function NotFoundPage() {
  return (
    <Center mih="50vh">
      <Stack align="center">
        <Title order={1}>404 Page Not Found</Title>
        <Text c="dimmed" ta="center">
          Did you forget to add the page to the router? Check the route entry for <Code>{location.pathname}</Code>.
        </Text>
      </Stack>
    </Center>
  );
}
