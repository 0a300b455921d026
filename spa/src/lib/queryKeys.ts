import type { components } from "./api-schema";

/**
 * Root query keys of each area. Every query key starts with one of these roots, so a socket event or a
 * mutation invalidates a whole area with `queryClient.invalidateQueries({ queryKey: roots.x })`.
 * Features build their keys from these (`[...roots.courses, id]`), never hand-typed strings.
 */
export const roots = {
  user: ["auth", "user"],
  passkeys: ["auth", "passkeys"],
  settings: ["auth", "settings"],
  ssoDiscover: ["auth", "sso-discover"],
  organization: ["organization"],
  // The organization's single sign-on configuration (ADR 0022), under the organization's key.
  sso: ["organization", "sso"],
  adminUsers: ["admin-users"],
  dashboard: ["dashboard"],
  courses: ["courses"],
  units: ["units"],
  campuses: ["campuses"],
  studyPlans: ["study-plans"],
  blockGroups: ["block-groups"],
  linkedGroups: ["linked-block-groups"],
  teachers: ["teachers"],
  teacherUnits: ["teacher-units"],
  allocationGrid: ["allocation-grid"],
  timetables: ["timetables"],
  holidays: ["holidays"],
  reports: ["reports"],
  search: ["search"],
  calendarFeeds: ["calendar-feeds"],
  displayLinks: ["display-links"],
  activity: ["activity"],
  rooms: ["rooms"],
} as const;

type Root = (typeof roots)[keyof typeof roots];

/** The entities of change events: the server's closed set (project/core/changes.py), through the generated types. */
export type Entity = components["schemas"]["ChangeEvent"]["entity"];

/**
 * Which cached areas a change event of each entity affects (docs/behaviour/live-events.md §7). The socket invalidates
 * these roots on every `change` event; on reconnect or a seq gap it invalidates everything.
 */
export const entityInvalidates: Record<Entity, Root[]> = {
  course: [roots.courses, roots.blockGroups, roots.reports, roots.dashboard, roots.search],
  unit: [roots.units, roots.studyPlans, roots.teacherUnits, roots.timetables, roots.reports, roots.search],
  study_plan: [roots.studyPlans, roots.blockGroups, roots.reports, roots.dashboard],
  study_plan_unit: [roots.studyPlans, roots.blockGroups, roots.reports],
  campus: [roots.campuses, roots.blockGroups],
  block_group: [roots.blockGroups, roots.linkedGroups, roots.timetables, roots.reports, roots.dashboard, roots.search],
  block_group_study_plan: [roots.blockGroups, roots.reports],
  // Open timetables' conflict badges depend on qualifications and on linked groups (ADR 0018).
  linked_block_group: [roots.linkedGroups, roots.blockGroups, roots.timetables],
  teacher: [roots.teachers, roots.teacherUnits, roots.timetables, roots.allocationGrid, roots.reports, roots.dashboard, roots.search],
  teacher_unit: [roots.teacherUnits, roots.teachers, roots.timetables],
  // Leave lives under the teacher's key; the sessions it hits change their conflicts (ADR 0014).
  teacher_leave: [roots.teachers, roots.timetables, roots.allocationGrid, roots.dashboard],
  timetable_session: [roots.timetables, roots.blockGroups, roots.allocationGrid, roots.reports, roots.dashboard, roots.teachers],
  // The allocation grid's weeks show holidays (ADR 0018).
  holiday: [roots.holidays, roots.timetables, roots.reports, roots.allocationGrid],
  organization: [roots.organization, roots.sso],
  user: [roots.adminUsers, roots.user],
  display_link: [roots.displayLinks],
  // A room's code is its sessions' room text (ADR 0019).
  room: [roots.rooms, roots.timetables, roots.search],
};
