import { confirmDestructive } from "@/components/ListPage";
import { Anchor, Avatar, Badge, Box, Button, Card, Grid, Group, Modal, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconBuilding, IconEdit, IconUserPlus } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { EmptyState } from "@/components/States";
import { CampusPlannerLinks } from "@/components/PlannerLink";
import { errorMessage } from "@/lib/api";
import { useCurrentUser } from "@/lib/auth";
import { notifyError, notifySuccess } from "@/lib/notify";
import { AddUserForm } from "./AddUserForm";
import { DisplayLinksCard } from "./display-links/DisplayLinksCard";
import { InvitationLinkModal, type ShownInvitation } from "./InvitationLinkModal";
import { OrganizationForm } from "./OrganizationForm";
import { SingleSignOnCard } from "./sso/SingleSignOnCard";
import { useAddUser, useAdminUsers, useDeactivateUser, useOrganization, useReissueInvitation, useUpdateOrganization, type OrgUser } from "./api";

export const DEACTIVATE_TITLE = "Deactivate User";
export const DEACTIVATE_TEXT = "Are you sure you want to deactivate the user? They will no longer be able to access the system.";

function Detail({ label, value }: { label: string; value?: string | null }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={500} style={{ whiteSpace: "pre-line", wordBreak: "break-word" }}>
        {value || "Not provided"}
      </Text>
    </div>
  );
}

function formatDate(value?: string | null) {
  if (!value) return "Never";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleDateString("en-AU", { day: "numeric", month: "short", year: "numeric" });
}

/** Organization Management (/organization, admin only; docs/behaviour/screens.md §5). */
export default function OrganizationPage() {
  const { user: me } = useCurrentUser();
  const organization = useOrganization();
  const users = useAdminUsers();
  const update = useUpdateOrganization();
  const addUser = useAddUser();
  const deactivate = useDeactivateUser();
  const reissue = useReissueInvitation();
  const [editOpen, setEditOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [invitation, setInvitation] = useState<ShownInvitation | null>(null);

  const reissueInvitation = async (user: OrgUser) => {
    try {
      const issued = await reissue.mutateAsync(user.id);
      setInvitation({ email: user.email, link: issued.invitationLink, expiresAt: issued.invitationExpiresAt });
    } catch (error) {
      notifyError("Error", errorMessage(error, "Failed to issue a new invitation"));
    }
  };
  const org = organization.data;
  const list = users.data ?? [];

  const confirmDeactivate = (user: OrgUser) =>
    confirmDestructive({
      title: DEACTIVATE_TITLE,
      message: DEACTIVATE_TEXT,
      confirm: "Deactivate",
      onConfirm: async () => {
        try {
          await deactivate.mutateAsync(user.id);
          notifySuccess("User deactivated successfully");
        } catch (error) {
          notifyError("Error", errorMessage(error, "Failed to deactivate user"));
        }
      },
    });

  return (
    <Grid>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="md">
            <Group gap="xs">
              <IconBuilding size={20} aria-hidden />
              <Title order={2} size="h4">
                Organization Details
              </Title>
            </Group>
            <Button size="xs" variant="light" leftSection={<IconEdit size={14} />} onClick={() => setEditOpen(true)} disabled={!org}>
              Edit
            </Button>
          </Group>
          {organization.isLoading ? (
            <Skeleton h={200} />
          ) : org ? (
            <Stack gap="sm">
              <Detail label="Name" value={org.name} />
              <Detail label="Domain" value={org.domain} />
              <Detail label="Phone" value={org.phone} />
              <div>
                <Text size="sm" c="dimmed">
                  Website
                </Text>
                {org.website ? (
                  <Anchor href={/^https?:\/\//.test(org.website) ? org.website : `https://${org.website}`} target="_blank" rel="noreferrer" fw={500}>
                    {org.website}
                  </Anchor>
                ) : (
                  <Text fw={500}>Not provided</Text>
                )}
              </div>
              <Detail label="Address" value={org.address} />
            </Stack>
          ) : (
            <Text c="dimmed">{errorMessage(organization.error, "Failed to load organization")}</Text>
          )}
        </Card>
        <Card withBorder radius="md" padding="lg" mt="md">
          <Group justify="space-between">
            <div>
              <Title order={2} size="h4">
                Rooms
              </Title>
              <Text size="sm" c="dimmed">
                Capacity, type and features of the campuses' teaching spaces
              </Text>
            </div>
            <Button size="xs" variant="light" component={Link} to="/rooms">
              Manage rooms
            </Button>
          </Group>
          <Box mt="sm">
            <CampusPlannerLinks />
          </Box>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="md">
            <Title order={2} size="h4">
              Users ({list.length})
            </Title>
            <Group gap="xs">
              <Button size="xs" variant="light" component={Link} to="/activity">
                Activity
              </Button>
              <Button size="xs" leftSection={<IconUserPlus size={14} />} onClick={() => setAddOpen(true)}>
                Add User
              </Button>
            </Group>
          </Group>
          {users.isLoading ? (
            <Skeleton h={200} />
          ) : list.length === 0 ? (
            <EmptyState
              title="No users in your organization yet"
              action={
                <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAddOpen(true)}>
                  Invite First User
                </Button>
              }
            />
          ) : (
            <Stack gap="xs" data-testid="org-users">
              {list.map((u) => {
                const name = `${u.firstName} ${u.lastName}`.trim();
                return (
                  <Card key={u.id} withBorder padding="sm" radius="sm" data-email={u.email}>
                    <Group justify="space-between" wrap="nowrap">
                      <Group gap="sm" wrap="nowrap" miw={0}>
                        <Avatar radius="xl" color="indigo">
                          {(u.firstName || u.email).charAt(0).toUpperCase()}
                        </Avatar>
                        <div style={{ minWidth: 0 }}>
                          <Group gap={6}>
                            <Text fw={500} size="sm">
                              {name || "Name not set"}
                            </Text>
                            <Badge size="xs" variant="light" color={u.role === "admin" ? "indigo" : "gray"}>
                              {u.role === "admin" ? "Admin" : "User"}
                            </Badge>
                            {!u.isActive ? (
                              <Badge size="xs" color="red" variant="light">
                                Inactive
                              </Badge>
                            ) : null}
                          </Group>
                          <Text size="xs" c="dimmed" truncate>
                            {u.email} · Last login {formatDate(u.lastLogin)}
                          </Text>
                        </div>
                      </Group>
                      <Group gap={4} wrap="nowrap">
                        {u.isActive && u.setupPending ? (
                          <Button size="xs" variant="subtle" onClick={() => reissueInvitation(u)} aria-label={`New invitation link for ${name || u.email}`}>
                            New invitation link
                          </Button>
                        ) : null}
                        {u.isActive && u.id !== me?.id ? (
                          <Button size="xs" variant="subtle" color="red" onClick={() => confirmDeactivate(u)} aria-label={`Deactivate ${name || u.email}`}>
                            Deactivate
                          </Button>
                        ) : null}
                      </Group>
                    </Group>
                  </Card>
                );
              })}
            </Stack>
          )}
        </Card>
      </Grid.Col>
      <Grid.Col span={12}>
        <SingleSignOnCard />
      </Grid.Col>
      <Grid.Col span={12}>
        <DisplayLinksCard />
      </Grid.Col>

      <Modal opened={editOpen} onClose={() => setEditOpen(false)} title="Edit Organization" centered>
        {org ? (
          <OrganizationForm
            organization={org}
            onCancel={() => setEditOpen(false)}
            onSubmit={async (values) => {
              try {
                await update.mutateAsync({ values, updatedAt: org.updatedAt });
                notifySuccess("Organization updated successfully");
                setEditOpen(false);
              } catch (error) {
                notifyError("Error", errorMessage(error, "Failed to update organization"));
                throw error;
              }
            }}
          />
        ) : null}
      </Modal>
      <Modal opened={addOpen} onClose={() => setAddOpen(false)} title="Add User" centered>
        <AddUserForm
          onCancel={() => setAddOpen(false)}
          onSubmit={async (values) => {
            try {
              const added = await addUser.mutateAsync(values);
              notifySuccess("User added successfully");
              setAddOpen(false);
              setInvitation({ email: added.email, link: added.invitationLink, expiresAt: added.invitationExpiresAt });
            } catch (error) {
              notifyError("Error", errorMessage(error, "Failed to invite user"));
              throw error;
            }
          }}
        />
      </Modal>
      <InvitationLinkModal invitation={invitation} onClose={() => setInvitation(null)} />
    </Grid>
  );
}
