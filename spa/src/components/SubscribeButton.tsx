/**
 * "Subscribe in calendar" on the teacher and block group pages (ADR 0018): creates or shows the user's
 * secret subscription URL for that timetable, with Copy and Revoke.
 */
import { ActionIcon, Button, CopyButton, Group, Modal, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { IconCalendarPlus, IconCheck, IconCopy } from "@tabler/icons-react";
import { useState } from "react";
import { formatDate } from "./Dates";
import { Notice } from "./Notice";
import { notifyError, notifySuccess } from "./Notify";
import { useCreateFeed, useFeedsOf, useRevokeFeed, type FeedTarget } from "@/lib/entities/calendarFeeds";

export function SubscribeButton({ target, name, compact = false }: { target: FeedTarget; name: string; compact?: boolean }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      {compact ? (
        <ActionIcon variant="subtle" aria-label={`Subscribe to ${name} in calendar`} onClick={() => setOpened(true)}>
          <IconCalendarPlus size={16} />
        </ActionIcon>
      ) : (
        <Button variant="light" leftSection={<IconCalendarPlus size={16} />} onClick={() => setOpened(true)}>
          Subscribe in calendar
        </Button>
      )}
      <Modal opened={opened} onClose={() => setOpened(false)} title={`Subscribe in calendar - ${name}`} size="lg">
        {opened ? <FeedPanel target={target} /> : null}
      </Modal>
    </>
  );
}

function FeedPanel({ target }: { target: FeedTarget }) {
  const { feeds, isLoading } = useFeedsOf(target);
  const create = useCreateFeed();
  const revoke = useRevokeFeed();
  const feed = feeds[0];
  if (isLoading) return <Text c="dimmed">Loading...</Text>;
  return (
    <Stack>
      <Text size="sm">
        Add this timetable to Outlook, Google Calendar or Apple Calendar as a subscription: the calendar app checks the link for changes. Anyone with the link
        can read this timetable, so keep it private; revoke it if it has been shared.
      </Text>
      {feed ? (
        <>
          <Group align="flex-end" wrap="nowrap">
            <TextInput label="Subscription URL" value={feed.url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={feed.url}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? "Copied" : "Copy"}>
                  <ActionIcon size="lg" variant="light" color={copied ? "teal" : "blue"} onClick={copy} aria-label="Copy subscription URL">
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Text size="xs" c="dimmed">
            Created {formatDate(feed.createdAt.slice(0, 10))}
            {feed.lastAccessedAt ? `; last read by a calendar ${formatDate(feed.lastAccessedAt.slice(0, 10))}` : "; not read by a calendar yet"}.
          </Text>
          <Group justify="flex-end">
            <Button
              color="red"
              variant="light"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(feed.id, {
                  onSuccess: () => notifySuccess("Subscription revoked: the link no longer works"),
                  onError: () => notifyError("Failed to revoke the subscription", "Please try again."),
                })
              }
            >
              Revoke link
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Notice color="blue">You have no subscription link for this timetable yet.</Notice>
          <Group justify="flex-end">
            <Button
              loading={create.isPending}
              onClick={() =>
                create.mutate(target, {
                  onSuccess: () => notifySuccess("Subscription link created"),
                  onError: () => notifyError("Failed to create the subscription link", "Please try again."),
                })
              }
            >
              Create subscription link
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
