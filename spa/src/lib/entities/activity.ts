/** Activity history (ADR 0011): GET /api/activity, newest first, kept live by every change event (lib/liveTargets.ts). */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";

export type Activity = components["schemas"]["ActivityOut"];
export type ActivityPage = components["schemas"]["ActivityPageOut"];

export type ActivityDetail = components["schemas"]["ActivityDetailOut"];

export interface ActivityFilters {
  entity?: string;
  id?: string;
  /** The person who made the changes (a user id). */
  actorId?: string;
  /** Days (YYYY-MM-DD, inclusive) in the organization's timezone. */
  start?: string;
  end?: string;
  page?: number;
  pageSize?: number;
}

export async function fetchActivity(f: ActivityFilters): Promise<ActivityPage> {
  const { data } = await client.GET("/api/activity", {
    params: {
      query: {
        entity: f.entity || undefined,
        id: f.id || undefined,
        actorId: f.actorId || undefined,
        start: f.start || undefined,
        end: f.end || undefined,
        page: f.page ?? 1,
        pageSize: f.pageSize ?? 50,
      },
    },
  });
  return data!;
}

export const useActivity = (f: ActivityFilters) =>
  useQuery({ queryKey: [...roots.activity, f], queryFn: () => fetchActivity(f), placeholderData: keepPreviousData });

/** One activity with its field-level changes (GET /api/activity/{id}); loaded when its row is opened. */
export const useActivityDetail = (id: string | null) =>
  useQuery({
    queryKey: [...roots.activity, "detail", id],
    queryFn: async (): Promise<ActivityDetail> => {
      const { data } = await client.GET("/api/activity/{activity_id}", { params: { path: { activity_id: id! } } });
      return data!;
    },
    enabled: !!id,
  });

/** An undo of an undo is a redo (the server's summary reads "... undid: ..." for an undo). */
export const isUndoOfUndo = (a: Pick<Activity, "undoOfId" | "summary">) => !!a.undoOfId && / undid: /.test(a.summary);

export const ENTITY_LABELS: Record<string, string> = {
  course: "Courses",
  unit: "Units of competency",
  study_plan: "Study plans",
  study_plan_unit: "Study plan units",
  campus: "Campuses",
  block_group: "Block groups",
  block_group_study_plan: "Block group study plans",
  linked_block_group: "Linked block groups",
  teacher: "Teachers",
  teacher_unit: "Teacher qualifications",
  teacher_leave: "Teacher leave",
  timetable_session: "Sessions",
  holiday: "Holidays",
  organization: "Organization",
  user: "Users",
  display_link: "Display links",
  room: "Rooms",
};

/** "25 Nov 2026, 2:05 pm" in the organization's timezone (the answer's offset is kept). */
export function activityTime(at: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(at);
  if (!match) return at;
  const [, y, mo, d, h, mi] = match;
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Number(mo) - 1];
  const hour = Number(h);
  return `${Number(d)} ${month} ${y}, ${hour % 12 || 12}:${mi} ${hour < 12 ? "am" : "pm"}`;
}
