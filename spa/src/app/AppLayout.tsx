import { AppShell } from "@mantine/core";
import { Outlet } from "react-router";

/** The application shell (sidebar, header): placeholder until the shell lands. */
export function AppLayout() {
  return (
    <AppShell padding="md">
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
