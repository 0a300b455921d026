/**
 * Calendar subscriptions (the /api/calendar-feeds, given a screen by the coordinator screens work (ADR 0018)): a secret .ics URL
 * per teacher or block group that calendar clients (Outlook, Google, Apple) poll; revoking it makes the
 * URL answer 404.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "../api";
import type { components } from "../api-schema";
import { roots } from "../queryKeys";
import { useRefreshingMutation } from "../refreshingMutation";

export type CalendarFeed = components["schemas"]["CalendarFeedOut"];
export type FeedTarget = { teacherId: string } | { blockGroupId: string } | { roomId: string };

async function fetchFeeds(): Promise<CalendarFeed[]> {
  const { data } = await client.GET("/api/calendar-feeds");
  return data!;
}

export const feedsQueryOptions = () => queryOptions({ queryKey: [...roots.calendarFeeds], queryFn: fetchFeeds });

/** The signed-in user's feeds of one teacher or block group (not revoked). */
export function useFeedsOf(target: FeedTarget) {
  const query = useQuery(feedsQueryOptions());
  const feeds = (query.data ?? []).filter((f) =>
    "teacherId" in target ? f.teacherId === target.teacherId : "roomId" in target ? f.roomId === target.roomId : f.blockGroupId === target.blockGroupId,
  );
  return { ...query, feeds };
}

export function useCreateFeed() {
  return useRefreshingMutation(
    [roots.calendarFeeds],
    async (target: FeedTarget): Promise<CalendarFeed> => {
      const { data } = await client.POST("/api/calendar-feeds", { body: target });
      return data!;
    },
    "success",
  );
}

export function useRevokeFeed() {
  return useRefreshingMutation(
    [roots.calendarFeeds],
    async (id: string) => {
      await client.DELETE("/api/calendar-feeds/{feed_id}", { params: { path: { feed_id: id } } });
    },
    "success",
  );
}
