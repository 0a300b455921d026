import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Center, Loader, PasswordInput, Stack, Text } from "@mantine/core";
import { AuthenticatorQr } from "@/components/AuthenticatorQr";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { errorMessage } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import { AuthenticatorCodeInput, registerCode } from "@/components/AuthFields";
import { accountSetupSchema, type AccountSetupValues } from "./schemas";
import { useSetupPassword, useTotpSetup } from "./api";

export const PASSWORD_HINT = "At least 12 characters with uppercase, lowercase, a number and a special character.";

/**
 * The account setup form (docs/behaviour/accounts.md §4): authenticator QR image (256 px) and manual key with copy,
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
          <AuthenticatorQr qrCodeUri={setup.data.qrCodeUri} manualEntryKey={setup.data.manualEntryKey} />
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
        <PasswordInput label="Confirm Password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register("confirmPassword")} />
        <AuthenticatorCodeInput error={errors.totpCode?.message} {...registerCode(form)} />
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
