import { Avatar, Badge, Button, Card, Grid, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconLock, IconShieldCheck, IconShieldOff } from "@tabler/icons-react";
import { useState } from "react";
import { errorMessage } from "@/lib/api";
import { displayName, useCurrentUser } from "@/lib/auth";
import { notifyError, notifySuccess } from "@/lib/notify";
import { ChangePasswordDialog } from "./ChangePasswordDialog";
import { PasskeysCard } from "./PasskeysCard";
import { TwoFactorControls } from "./TwoFactorControls";
import { useUpdateProfile } from "./api";

function Field({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{value || "Not provided"}</Text>
      {note ? (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      ) : null}
    </div>
  );
}

/** Profile (/profile): personal information, security, account information and passkeys (docs/behaviour/accounts.md §3). */
export default function ProfilePage() {
  const { user, isAdmin } = useCurrentUser();
  const update = useUpdateProfile();
  const [editing, setEditing] = useState(false);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [passwordOpen, setPasswordOpen] = useState(false);
  if (!user) return null;

  const startEdit = () => {
    setFirstName(user.firstName ?? "");
    setLastName(user.lastName ?? "");
    setEditing(true);
  };
  const save = async () => {
    try {
      await update.mutateAsync({ firstName, lastName });
      notifySuccess("Profile updated", "Your profile has been saved.");
      setEditing(false);
    } catch (error) {
      notifyError("Update failed", errorMessage(error, "Update failed"));
    }
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Group>
          <Avatar size={64} radius="xl" color="indigo" variant="filled">
            {(user.firstName?.trim() || user.email).charAt(0).toUpperCase()}
          </Avatar>
          <div>
            <Title order={1} size="h3">
              {displayName(user)}
            </Title>
            <Group gap="xs" mt={4}>
              <Badge variant="light" color={isAdmin ? "indigo" : "gray"}>
                {isAdmin ? "Administrator" : "Member"}
              </Badge>
              {user.isTotpEnabled ? (
                <Badge variant="light" color="green" leftSection={<IconShieldCheck size={12} />}>
                  2FA Enabled
                </Badge>
              ) : null}
            </Group>
          </div>
        </Group>
      </Card>
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder radius="md" padding="lg" h="100%">
            <Group justify="space-between" mb="md">
              <Title order={2} size="h4">
                Personal Information
              </Title>
              {editing ? (
                <Group gap="xs">
                  <Button size="xs" variant="default" onClick={() => setEditing(false)}>
                    Cancel
                  </Button>
                  <Button size="xs" onClick={save} loading={update.isPending}>
                    Save Changes
                  </Button>
                </Group>
              ) : (
                <Button size="xs" variant="light" onClick={startEdit}>
                  Edit Profile
                </Button>
              )}
            </Group>
            <Stack>
              {editing ? (
                <>
                  <TextInput label="First Name" maxLength={100} value={firstName} onChange={(e) => setFirstName(e.currentTarget.value)} />
                  <TextInput label="Last Name" maxLength={100} value={lastName} onChange={(e) => setLastName(e.currentTarget.value)} />
                </>
              ) : (
                <>
                  <Field label="First Name" value={user.firstName} />
                  <Field label="Last Name" value={user.lastName} />
                </>
              )}
              <Field label="Email" value={user.email} note="Cannot be changed" />
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack h="100%">
            <Card withBorder radius="md" padding="lg">
              <Title order={2} size="h4" mb="md">
                Account Security
              </Title>
              <Group justify="space-between" mb="md">
                <Group gap="xs">
                  {user.isTotpEnabled ? (
                    <IconShieldCheck size={20} color="var(--mantine-color-green-8)" aria-hidden />
                  ) : (
                    <IconShieldOff size={20} aria-hidden />
                  )}
                  <Text size="sm">Two-factor authentication</Text>
                </Group>
                <Badge variant="light" color={user.isTotpEnabled ? "green" : "gray"} data-testid="totp-status">
                  {user.isTotpEnabled ? "2FA Enabled" : "Disabled"}
                </Badge>
              </Group>
              <Stack gap="xs">
                <Button variant="default" leftSection={<IconLock size={16} />} onClick={() => setPasswordOpen(true)}>
                  Change Password
                </Button>
                <TwoFactorControls user={user} />
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="lg">
              <Title order={2} size="h4" mb="md">
                Account Information
              </Title>
              <Stack gap="xs">
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    Account Status
                  </Text>
                  <Badge variant="light" color={user.isActive ? "green" : "red"}>
                    {user.isActive ? "Active" : "Inactive"}
                  </Badge>
                </Group>
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    Organization Role
                  </Text>
                  <Text size="sm" fw={500}>
                    {isAdmin ? "Administrator" : "Organization Member"}
                  </Text>
                </Group>
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
      <PasskeysCard />
      <ChangePasswordDialog opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Stack>
  );
}
