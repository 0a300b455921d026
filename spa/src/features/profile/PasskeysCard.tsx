import { ActionIcon, Badge, Button, Card, Group, Skeleton, Stack, Text, TextInput, Title, Tooltip } from "@mantine/core";
import { FormDialog, preventingDefault } from "@/components/FormDialog";
import { IconFingerprint, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { errorMessage } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useDeletePasskey, usePasskeys, useRegisterPasskey } from "./api";

export const NO_PASSKEYS = "No passkeys registered yet. Add one to sign in without a password.";

export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleDateString("en-AU", { day: "numeric", month: "short", year: "numeric" });
}

function registrationError(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || (error as { code?: string })?.code === "ERROR_CEREMONY_ABORTED") {
    return "Passkey registration was not completed.";
  }
  if (typeof window !== "undefined" && !window.PublicKeyCredential) return "Your browser does not support passkeys.";
  return errorMessage(error, "Passkey registration failed");
}

/** The Passkeys card (docs/behaviour/accounts.md §3): list with device, created, last used ('Unused'), delete; Add Passkey dialog. */
export function PasskeysCard() {
  const passkeys = usePasskeys();
  const register = useRegisterPasskey();
  const remove = useDeletePasskey();
  const [open, setOpen] = useState(false);
  const [deviceName, setDeviceName] = useState("");

  const submit = async () => {
    try {
      await register.mutateAsync(deviceName);
      notifySuccess("Passkey registered", "You can now sign in with this passkey.");
      setOpen(false);
      setDeviceName("");
    } catch (error) {
      notifyError("Registration failed", registrationError(error));
    }
  };

  const onDelete = async (id: string) => {
    try {
      await remove.mutateAsync(id);
      notifySuccess("Passkey deleted");
    } catch (error) {
      notifyError("Delete failed", errorMessage(error, "Failed to delete passkey"));
    }
  };

  const list = passkeys.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md">
        <Group gap="xs">
          <IconFingerprint size={20} aria-hidden />
          <Title order={2} size="h4">
            Passkeys
          </Title>
        </Group>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setOpen(true)}>
          Add Passkey
        </Button>
      </Group>
      {passkeys.isLoading ? (
        <Skeleton h={48} />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_PASSKEYS}
        </Text>
      ) : (
        <Stack gap="xs" data-testid="passkey-list">
          {list.map((pk) => (
            <Card key={pk.id} withBorder padding="sm" radius="sm">
              <Group justify="space-between" wrap="nowrap">
                <div>
                  <Group gap="xs">
                    <Text fw={500} size="sm">
                      {pk.deviceName || "Unknown Device"}
                    </Text>
                    {!pk.lastUsed ? (
                      <Badge size="xs" variant="light" color="gray">
                        Unused
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="dimmed">
                    Created {formatDate(pk.createdAt)}
                    {pk.lastUsed ? ` · Last used ${formatDate(pk.lastUsed)}` : ""}
                  </Text>
                </div>
                <Tooltip label="Delete passkey">
                  <ActionIcon
                    color="red"
                    variant="subtle"
                    aria-label={`Delete passkey ${pk.deviceName || "Unknown Device"}`}
                    onClick={() => onDelete(pk.id)}
                    loading={remove.isPending && remove.variables === pk.id}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <FormDialog
        opened={open}
        onClose={() => setOpen(false)}
        title="Add Passkey"
        centered
        label="Add passkey"
        onSubmit={preventingDefault(submit)}
        submitLabel="Register Passkey"
        loading={register.isPending}
      >
        <Text size="sm" c="dimmed">
          Register this device's passkey or a security key to sign in without a password.
        </Text>
        <TextInput
          label="Device Name"
          description="Optional, e.g. Work laptop"
          maxLength={100}
          value={deviceName}
          onChange={(e) => setDeviceName(e.currentTarget.value)}
        />
      </FormDialog>
    </Card>
  );
}
