import { zodResolver } from "@hookform/resolvers/zod";
import { ActionIcon, Alert, Button, Center, Code, Group, Image, Loader, PasswordInput, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { errorMessage } from "../../lib/api";
import { notifyError, notifySuccess } from "../../lib/notify";
import { accountSetupSchema, digitsOnly, type AccountSetupValues } from "./schemas";
import { useSetupPassword, useTotpSetup } from "./api";

export const PASSWORD_HINT = "At least 12 characters with uppercase, lowercase, a number and a special character.";

/** Copies the manual entry key; the toasts of platform.md §8. */
export async function copyManualKey(key: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(key);
    notifySuccess("Copied to clipboard", "Manual entry key copied successfully");
    return true;
  } catch {
    notifyError("Copy failed", "Could not copy to clipboard");
    return false;
  }
}

/**
 * The account setup form (platform.md §2): authenticator QR image (256 px) and manual key with copy,
 * password, confirmation and the 6-digit authenticator code. Used by sign-in and first-time setup.
 */
export function AccountSetupForm({ userId, onBack }: { userId: string; onBack: () => void }) {
  const setup = useTotpSetup(userId);
  const complete = useSetupPassword();
  const navigate = useNavigate();
  const form = useForm<AccountSetupValues>({
    resolver: zodResolver(accountSetupSchema),
    defaultValues: { password: "", confirmPassword: "", totpCode: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (setup.isError) notifyError("TOTP setup error", "Could not load authenticator setup");
  }, [setup.isError]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await complete.mutateAsync({ userId, ...values });
      notifySuccess("Setup complete", "Your account is ready to use!");
      navigate("/");
    } catch (error) {
      notifyError("Setup failed", errorMessage(error, "Setup failed"));
    }
  });

  if (setup.isLoading) {
    return (
      <Center py="xl">
        <Stack align="center" gap="xs">
          <Loader aria-label="Loading authenticator setup..." />
          <Text>Loading authenticator setup...</Text>
        </Stack>
      </Center>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Account setup">
      <Stack>
        {setup.data ? (
          <Stack gap="xs" align="center">
            <Text size="sm" ta="center">
              Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...).
            </Text>
            <Image
              src={setup.data.qrCodeUri}
              alt="Authenticator QR code"
              w={256}
              h={256}
              fit="contain"
              p={8}
              bg="white"
              radius="sm"
              data-testid="totp-qr"
            />
            <Text size="sm" c="dimmed">
              Or enter this key manually:
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code data-testid="manual-entry-key" fz="sm" style={{ wordBreak: "break-all" }}>
                {setup.data.manualEntryKey}
              </Code>
              <Tooltip label={copied ? "Copied" : "Copy key"}>
                <ActionIcon
                  variant="light"
                  aria-label="Copy manual entry key"
                  onClick={async () => setCopied(await copyManualKey(setup.data!.manualEntryKey))}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            </Group>
          </Stack>
        ) : (
          <Alert color="red" title="TOTP setup error">
            Could not load authenticator setup
          </Alert>
        )}
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          description={PASSWORD_HINT}
          error={errors.password?.message}
          {...form.register("password")}
        />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register("confirmPassword")}
        />
        <TextInput
          label="Authenticator Code"
          placeholder="Enter 6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={errors.totpCode?.message}
          {...form.register("totpCode", { onChange: (e) => form.setValue("totpCode", digitsOnly(e.target.value)) })}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          Complete Setup
        </Button>
        <Button variant="subtle" onClick={onBack}>
          Back to Login
        </Button>
      </Stack>
    </form>
  );
}
