import { confirmDestructive } from "@/components/ListPage";
import { Alert, Button, Center, Loader, Modal, Stack } from "@mantine/core";
import { IconShieldCheck, IconShieldOff } from "@tabler/icons-react";
import { useState } from "react";
import { AuthenticatorQr } from "@/components/AuthenticatorQr";
import { FormActions } from "@/components/FormActions";
import { preventingDefault } from "@/components/FormDialog";
import { AuthenticatorCodeInput } from "@/components/AuthFields";
import { digitsOnly } from "@/lib/format";
import { errorMessage } from "@/lib/api";
import type { CurrentUser } from "@/lib/auth";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useEnableTotp, useResetTotp, useTotpEnrolment } from "./api";

function EnableDialog({ user, opened, onClose }: { user: CurrentUser; opened: boolean; onClose: () => void }) {
  const setup = useTotpEnrolment(user.id, opened);
  const enable = useEnableTotp();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setCode("");
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (code.length !== 6) {
      setError("TOTP code must be 6 digits");
      return;
    }
    try {
      await enable.mutateAsync(code);
      notifySuccess("TOTP enabled", "Two-factor authentication is now active.");
      close();
    } catch (e) {
      notifyError("TOTP enable failed", errorMessage(e, "TOTP enable failed"));
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Enable Two-Factor Authentication" centered>
      {setup.isLoading ? (
        <Center py="lg">
          <Loader aria-label="Loading authenticator setup..." />
        </Center>
      ) : setup.data ? (
        <form onSubmit={preventingDefault(submit)} aria-label="Enable two-factor authentication">
          <Stack>
            <AuthenticatorQr qrCodeUri={setup.data.qrCodeUri} manualEntryKey={setup.data.manualEntryKey} />
            <AuthenticatorCodeInput value={code} error={error} onChange={(e) => setCode(digitsOnly(e.currentTarget.value))} />
            <FormActions onCancel={close} submitLabel="Enable" loading={enable.isPending} />
          </Stack>
        </form>
      ) : (
        <Alert color="red" title="TOTP setup error">
          {errorMessage(setup.error, "Could not load authenticator setup")}
        </Alert>
      )}
    </Modal>
  );
}

/** Reset (TOTP on) or enable (TOTP off) two-factor authentication from the Account Security card. */
export function TwoFactorControls({ user }: { user: CurrentUser }) {
  const reset = useResetTotp();
  const [enableOpen, setEnableOpen] = useState(false);
  const confirmReset = () =>
    confirmDestructive({
      title: "Reset two-factor authentication",
      message: "Your current authenticator will stop working. You will scan a new QR code to turn two-factor authentication back on.",
      confirm: "Reset",
      onConfirm: async () => {
        try {
          await reset.mutateAsync();
          notifySuccess("TOTP reset", "Please scan the new QR code to re-enable TOTP.");
          setEnableOpen(true);
        } catch (e) {
          notifyError("TOTP reset failed", errorMessage(e, "TOTP reset failed"));
        }
      },
    });
  return (
    <>
      {user.isTotpEnabled ? (
        <Button variant="subtle" color="red" leftSection={<IconShieldOff size={16} />} onClick={confirmReset} loading={reset.isPending}>
          Reset Authenticator
        </Button>
      ) : (
        <Button variant="light" leftSection={<IconShieldCheck size={16} />} onClick={() => setEnableOpen(true)}>
          Enable Two-Factor Authentication
        </Button>
      )}
      <EnableDialog user={user} opened={enableOpen} onClose={() => setEnableOpen(false)} />
    </>
  );
}
