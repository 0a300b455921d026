import { Button, CopyButton, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";

export interface ShownInvitation {
  email: string;
  link: string;
  expiresAt: string;
}

function formatExpiry(value: string) {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString("en-AU", { day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit" });
}

/**
 * The invitation link of a user just added or re-invited (ADR 0005), shown once to the admin
 * with a copy button. The link is also emailed; it works once and expires after 7 days.
 */
export function InvitationLinkModal({ invitation, onClose }: { invitation: ShownInvitation | null; onClose: () => void }) {
  return (
    <Modal opened={invitation !== null} onClose={onClose} title="Invitation link" centered>
      {invitation ? (
        <Stack>
          <Text size="sm">
            Send this link to {invitation.email} to set up their password and two-factor authentication. It has also been emailed. It works once and expires on{" "}
            {formatExpiry(invitation.expiresAt)}.
          </Text>
          <TextInput label="Invitation link" value={invitation.link} readOnly onFocus={(e) => e.currentTarget.select()} />
          <Group justify="flex-end">
            <CopyButton value={invitation.link}>
              {({ copied, copy }) => (
                <Button leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} color={copied ? "teal" : undefined} onClick={copy}>
                  {copied ? "Copied" : "Copy link"}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
