import { Button, Card, Center, Code, Stack, Text, Title } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { FullPageLoader } from "@/components/States";
import { ServerUnreachable } from "./ServerUnreachable";
import { startSilentRecheck } from "@/lib/ssoSession";
import { useCurrentUser } from "@/lib/auth";
import { queryClient } from "@/lib/queryClient";
import { ensureSocket } from "@/lib/socket";

/**
 * A signed-out visit to a protected page: to /auth, or, when this browser signed in with single sign-on
 * (its session ended after at most 12 hours, ADR 0022), to the provider's silent re-check, which comes
 * back to this page signed in (at most one a minute; see lib/ssoSession.ts).
 */
function SignedOut() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const [to, setTo] = useState<"deciding" | "provider" | "auth">("deciding");
  useEffect(() => setTo(startSilentRecheck(here) ? "provider" : "auth"), [here]);
  if (to === "auth") return <Navigate to="/auth" replace />;
  return <FullPageLoader label="Loading..." />;
}

/**
 * Protected pages: 'Loading...' with a spinner while the user loads; signed-out users go to /auth.
 * Once the user is known the live-update socket is opened, before any page's first data fetch
 * (docs/behaviour/live-events.md): children's queries start in their own effects, which run after this render.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading, isError, data, refetch } = useCurrentUser();
  if (isLoading) return <FullPageLoader label="Loading..." />;
  // A 5xx or no answer is an outage, not a sign-out (only a 401 is): say so and try again (ADR 0018).
  if (isError && data === undefined) return <ServerUnreachable retry={refetch} />;
  if (!user) return <SignedOut />;
  if (typeof window !== "undefined" && !import.meta.env.VITEST) ensureSocket(queryClient);
  return <>{children}</>;
}

/** /auth, /setup and /first-time redirect a signed-in user to /. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { user, isLoading, isError, data, refetch } = useCurrentUser();
  if (isLoading) return <FullPageLoader label="Loading..." />;
  if (user) return <Navigate to="/" replace />;
  // The session check found no server: the form stays, with the outage said above it, and the check is
  // asked again (a signed-in user is then sent on).
  if (isError && data === undefined)
    return (
      <>
        <div style={{ position: "fixed", top: 16, left: "50%", transform: "translateX(-50%)", zIndex: 300, width: "min(520px, calc(100vw - 32px))" }}>
          <ServerUnreachable retry={refetch} compact />
        </div>
        {children}
      </>
    );
  return <>{children}</>;
}

export const ACCESS_DENIED_TEXT = "This page is restricted to administrators only. Please contact your system administrator if you need access.";
export const ORGANIZATION_DENIED_TEXT = "You don't have permission to access organization management.";

/** The Access Denied screen (docs/behaviour/screens.md §1) with a 'Go Back' button to the previous page. */
export function AccessDenied({ message = ACCESS_DENIED_TEXT }: { message?: string }) {
  const navigate = useNavigate();
  return (
    <Center mih="60vh">
      <Card withBorder padding="xl" maw={520} radius="md">
        <Stack align="center">
          <IconLock size={48} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden />
          <Title order={1} size="h2">
            Access Denied
          </Title>
          <Text ta="center">{message}</Text>
          <Button onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/"))}>Go Back</Button>
        </Stack>
      </Card>
    </Center>
  );
}

/** Admin-only pages: the Access Denied screen for role user. */
export function RequireAdmin({ children, message = ACCESS_DENIED_TEXT }: { children: ReactNode; message?: string }) {
  const { isAdmin, isLoading } = useCurrentUser();
  if (isLoading) return <FullPageLoader label="Loading..." />;
  if (isAdmin) return <>{children}</>;
  return <AccessDenied message={message} />;
}

export function NotFoundPage() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <Center mih="60vh">
      <Card withBorder padding="xl" maw={560} radius="md">
        <Stack align="center">
          <Title order={1}>404 Page Not Found</Title>
          <Text c="dimmed" ta="center">
            Did you forget to add the page to the router? No route entry matches <Code>{location.pathname}</Code>.
          </Text>
          <Button variant="light" onClick={() => navigate("/")}>
            Go to Dashboard
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}
