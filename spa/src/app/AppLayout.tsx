import { useMediaQuery } from "@mantine/hooks";
import {
  ActionIcon,
  AppShell,
  Avatar,
  Badge,
  Box,
  Burger,
  Button,
  Divider,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
  useMantineColorScheme,
} from "@mantine/core";
import {
  IconChevronDown,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconLogout,
  IconBuilding,
  IconSettings,
  IconUser,
  IconBolt,
  IconCalendarStats,
} from "@tabler/icons-react";
import { useCallback, useState } from "react";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { logout } from "@/features/auth/api";
import { forgetSsoEmail } from "@/lib/ssoSession";
import { useSsoErrorNotice } from "@/features/auth/useSsoErrorNotice";
import { HeaderSearch } from "@/features/search/HeaderSearch";
import { useApplySavedAppearance, useSettings, type UserSettings } from "@/features/settings/api";
import { setDisplayFormats } from "@/components/Dates";
import { applyCompact, toMantineScheme } from "@/lib/theme";
import { errorMessage } from "@/lib/api";
import { displayName, useCurrentUser, type CurrentUser } from "@/lib/auth";
import { notifyError, notifySuccess } from "@/lib/notify";
import { usePresenceReporter } from "@/lib/presence";
import { useLiveStatus } from "@/lib/socket";
import { headerTitle, NAV_ITEMS, QUICK_ACTIONS } from "./navigation";
import { ImpactNotice } from "@/features/replan/ImpactNotice";
import { OfflineBanner } from "./OfflineBanner";
import { clearSession } from "./session";

/** Sidebar widths: 64 units expanded, 16 collapsed (docs/behaviour/screens.md §2; a unit is 4 px). */
export const SIDEBAR_EXPANDED = 256;
export const SIDEBAR_COLLAPSED = 64;

export function initialsOf(user: Pick<CurrentUser, "firstName" | "email"> | null): string {
  const source = user?.firstName?.trim() || user?.email || "U";
  return source.charAt(0).toUpperCase();
}

export const roleLabel = (role: string | undefined) => (role === "admin" ? "Administrator" : "Organization Member");

/** The live/offline indicator of the live-update socket. */
export function LiveIndicator() {
  const status = useLiveStatus();
  const live = status === "connected";
  return (
    <Tooltip label={live ? "Live updates are on" : "Offline: reconnecting; data refreshes periodically"}>
      <Badge
        variant="dot"
        color={live ? "green" : "gray"}
        data-testid="live-status"
        data-status={status}
        aria-label={live ? "Live" : "Offline"}
        style={{ flexShrink: 0, overflow: "visible" }}
      >
        {live ? "Live" : "Offline"}
      </Badge>
    </Tooltip>
  );
}

function UserMenu({ user, isAdmin }: { user: CurrentUser; isAdmin: boolean }) {
  const navigate = useNavigate();
  const onLogout = async () => {
    try {
      const providerLogoutUrl = await logout();
      clearSession();
      if (providerLogoutUrl) {
        // Signed out here; the provider signs the browser out too and sends it back to /auth (ADR 0024).
        window.location.assign(providerLogoutUrl);
        return;
      }
      notifySuccess("Logged out", "You have been logged out successfully.");
      navigate("/auth");
    } catch (error) {
      notifyError("Logout failed", errorMessage(error, "Logout failed"));
    }
  };
  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" title="User menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar radius="xl" color="indigo" variant="filled">
              {initialsOf(user)}
            </Avatar>
            <Box visibleFrom="md">
              <Text size="sm" fw={500} lh={1.2}>
                {displayName(user)}
              </Text>
              <Text size="xs" c="dimmed" lh={1.2}>
                {roleLabel(user.role)}
              </Text>
            </Box>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Box px="sm" py={6}>
          <Text size="sm" fw={600}>
            {displayName(user)}
          </Text>
          <Text size="xs" c="dimmed">
            {user.email}
          </Text>
          <Badge mt={6} size="sm" variant="light" color={isAdmin ? "indigo" : "gray"}>
            {roleLabel(user.role)}
          </Badge>
        </Box>
        <Menu.Divider />
        <Menu.Item leftSection={<IconUser size={16} />} component={Link} to="/profile">
          Profile
        </Menu.Item>
        <Menu.Item leftSection={<IconSettings size={16} />} component={Link} to="/settings">
          Settings
        </Menu.Item>
        {isAdmin ? (
          <Menu.Item leftSection={<IconBuilding size={16} />} component={Link} to="/organization">
            Organization
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={onLogout}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function QuickActionsMenu() {
  const navigate = useNavigate();
  // On a phone the menu stays reachable as an icon (dense screens at 390 px).
  const phone = useMediaQuery("(max-width: 48em)") ?? false;
  return (
    <Menu position="bottom-end" shadow="md">
      <Menu.Target>
        {phone ? (
          <ActionIcon variant="light" size="lg" aria-label="Quick Actions">
            <IconBolt size={18} />
          </ActionIcon>
        ) : (
          <Button variant="light" leftSection={<IconBolt size={16} />} rightSection={<IconChevronDown size={14} />}>
            Quick Actions
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown>
        {QUICK_ACTIONS.map((action) => (
          <Menu.Item key={action.label} leftSection={<action.icon size={16} />} onClick={() => navigate(action.to)}>
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The application shell (docs/behaviour/screens.md §2): collapsible sidebar, header, user menu. */
export function AppLayout() {
  const { user, isAdmin } = useCurrentUser();
  const [collapsed, setCollapsed] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  usePresenceReporter();
  useSsoErrorNotice();
  const { setColorScheme } = useMantineColorScheme();
  const applyAppearance = useCallback(
    (saved: UserSettings) => {
      setColorScheme(toMantineScheme(saved.theme));
      applyCompact(saved.preferences.compactView);
    },
    [setColorScheme],
  );
  useApplySavedAppearance(applyAppearance);
  // The user's date and time formats, set before the pages below render (they read them while rendering).
  const preferences = useSettings().data?.preferences;
  setDisplayFormats(preferences?.dateFormat, preferences?.timeFormat);
  if (!user) return null;
  const { title, subtitle } = headerTitle(location.pathname);
  const isActive = (to: string) => (to === "/" ? location.pathname === "/" : location.pathname === to || location.pathname.startsWith(`${to}/`));
  const nav = NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin);
  const narrow = collapsed;

  return (
    <AppShell
      padding="md"
      header={{ height: 68 }}
      navbar={{ width: narrow ? SIDEBAR_COLLAPSED : SIDEBAR_EXPANDED, breakpoint: "sm", collapsed: { mobile: !mobileOpen } }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger opened={mobileOpen} onClick={() => setMobileOpen((o) => !o)} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Box miw={0}>
              <Title order={1} size="h3" lh={1.2} data-testid="header-title">
                {title}
              </Title>
              <Text size="sm" c="dimmed" truncate visibleFrom="md">
                {subtitle}
              </Text>
            </Box>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <QuickActionsMenu />
            <Box visibleFrom="sm">
              <HeaderSearch />
            </Box>
            <LiveIndicator />
            <UserMenu user={user} isAdmin={isAdmin} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p={narrow ? 6 : "sm"} aria-label="Main navigation" data-collapsed={narrow}>
        {/* On a phone the header has no room for the search: it opens with the menu (ADR 0018). */}
        <AppShell.Section hiddenFrom="sm" mb="sm">
          {mobileOpen ? <HeaderSearch fullWidth onOpen={() => setMobileOpen(false)} /> : null}
        </AppShell.Section>
        <AppShell.Section>
          <Group justify={narrow ? "center" : "space-between"} wrap="nowrap" mb="sm">
            {!narrow ? (
              <Group gap={8} wrap="nowrap">
                <IconCalendarStats size={26} color="var(--mantine-color-indigo-6)" aria-hidden />
                <Text fw={700} size="lg">
                  Blockplan
                </Text>
              </Group>
            ) : null}
            <ActionIcon
              variant="subtle"
              onClick={() => setCollapsed((c) => !c)}
              aria-label={narrow ? "Expand sidebar" : "Collapse sidebar"}
              aria-expanded={!narrow}
              visibleFrom="sm"
            >
              {narrow ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
            </ActionIcon>
          </Group>
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2} component="nav" aria-label="Primary">
            {nav.map((item) => {
              const link = (
                <NavLink
                  key={item.to}
                  component={Link}
                  to={item.to}
                  label={narrow ? null : item.label}
                  aria-label={narrow ? item.label : undefined}
                  leftSection={<item.icon size={20} stroke={1.6} aria-hidden />}
                  active={isActive(item.to)}
                  aria-current={isActive(item.to) ? "page" : undefined}
                  onClick={() => setMobileOpen(false)}
                  style={{ borderRadius: 6 }}
                />
              );
              return narrow ? (
                <Tooltip key={item.to} label={item.label} position="right">
                  {link}
                </Tooltip>
              ) : (
                link
              );
            })}
          </Stack>
          <Divider my="sm" />
          {!narrow ? (
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              Quick Actions
            </Text>
          ) : null}
          <Stack gap={4}>
            {QUICK_ACTIONS.map((action) =>
              narrow ? (
                <Tooltip key={action.label} label={action.label} position="right">
                  <ActionIcon variant="light" size="lg" mx="auto" aria-label={action.label} onClick={() => navigate(action.to)}>
                    <action.icon size={18} />
                  </ActionIcon>
                </Tooltip>
              ) : (
                <Button
                  key={action.label}
                  variant="subtle"
                  justify="flex-start"
                  leftSection={<action.icon size={18} />}
                  onClick={() => {
                    setMobileOpen(false);
                    navigate(action.to);
                  }}
                >
                  {action.label}
                </Button>
              ),
            )}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Divider my="sm" />
          <Group justify={narrow ? "center" : "space-between"} wrap="nowrap" gap="xs">
            {!narrow ? (
              <Group gap="xs" wrap="nowrap" miw={0}>
                <Avatar radius="xl" size="md" color="indigo">
                  {initialsOf(user)}
                </Avatar>
                <Box miw={0}>
                  <Text size="sm" fw={500} truncate data-testid="sidebar-user">
                    {displayName(user)}
                  </Text>
                  <Text size="xs" c="dimmed" data-testid="sidebar-role">
                    {roleLabel(user.role)}
                  </Text>
                </Box>
              </Group>
            ) : null}
            <Tooltip label="Sign out">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label="Sign out"
                data-testid="sidebar-sign-out"
                onClick={() => {
                  forgetSsoEmail(); // an explicit sign-out: no silent single sign-on re-check afterwards
                  window.location.href = "/api/logout";
                }}
              >
                <IconLogout size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <OfflineBanner />
        <ImpactNotice />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
