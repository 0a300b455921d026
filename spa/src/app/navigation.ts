/** Sidebar navigation and quick actions (docs/behaviour/screens.md §2, Application shell). */
import {
  IconBook,
  IconCalendarEvent,
  IconCalendarOff,
  IconChartBar,
  IconDoor,
  IconHistory,
  IconTimeline,
  IconClipboardList,
  IconLayoutDashboard,
  IconLink,
  IconSchool,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
  IconCalendarPlus,
  IconSquarePlus,
  type Icon,
} from "@tabler/icons-react";

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  adminOnly?: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  { label: "Dashboard", to: "/", icon: IconLayoutDashboard },
  { label: "Courses", to: "/courses", icon: IconSchool },
  { label: "Units of Competency", to: "/units", icon: IconBook },
  { label: "Study Plans", to: "/study-plans", icon: IconClipboardList },
  { label: "Block Groups", to: "/block-groups", icon: IconUsersGroup },
  { label: "Linked Groups", to: "/linked-block-groups", icon: IconLink },
  { label: "Teachers", to: "/teachers", icon: IconUsers },
  { label: "Teacher Allocation", to: "/teacher-allocation-gantt", icon: IconTimeline, adminOnly: true },
  { label: "Timetables", to: "/timetables", icon: IconCalendarEvent },
  { label: "Holidays", to: "/holidays", icon: IconCalendarOff },
  // Everyone's (members read them; the write buttons are the admin's): ADR 0018.
  { label: "Rooms", to: "/rooms", icon: IconDoor },
  { label: "Reports", to: "/reports", icon: IconChartBar },
  { label: "Activity", to: "/activity", icon: IconHistory, adminOnly: true },
];

export const QUICK_ACTIONS: NavItem[] = [
  { label: "Create Block Group", to: "/block-groups", icon: IconSquarePlus },
  { label: "Schedule Session", to: "/timetables", icon: IconCalendarPlus },
  { label: "Add Teacher", to: "/teachers", icon: IconUserPlus },
];

export const DASHBOARD_SUBTITLE = "Cyber Security & Digital Technologies Department";

const EXTRA_TITLES: Record<string, { title: string; subtitle: string }> = {
  "/profile": { title: "Profile", subtitle: "Your account and security" },
  "/settings": { title: "Settings", subtitle: "Appearance, regional and data preferences" },
  "/organization": { title: "Organization", subtitle: "Organization details and users" },
  "/rooms": { title: "Rooms", subtitle: "Teaching spaces of the campuses" },
  "/activity": { title: "Activity", subtitle: "Who changed what, and when" },
};

/** The header's title and subtitle for a path. */
export function headerTitle(pathname: string): { title: string; subtitle: string } {
  if (pathname === "/") return { title: "Dashboard", subtitle: DASHBOARD_SUBTITLE };
  if (EXTRA_TITLES[pathname]) return EXTRA_TITLES[pathname];
  const item = NAV_ITEMS.find((n) => n.to !== "/" && (pathname === n.to || pathname.startsWith(`${n.to}/`)));
  if (item) return { title: item.label, subtitle: DASHBOARD_SUBTITLE };
  return { title: "Blockplan", subtitle: DASHBOARD_SUBTITLE };
}
