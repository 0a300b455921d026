/**
 * Re-authentication for sensitive changes (ADR 0006): registering a passkey and resetting or
 * enabling two-factor authentication need the password or an authenticator code entered for them in the
 * last 5 minutes. `withConfirmedIdentity(action)` runs the action; when the server answers 403
 * `reauth_required` it asks for the password (or a code) in a dialog, confirms it with
 * POST /api/auth/reauthenticate and runs the action again. Cancelling rejects with the original error.
 */
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { modals } from "@mantine/modals";
import { useState } from "react";
import { ApiError, client, errorMessage, fieldErrors } from "@/lib/api";
import { useCurrentUser } from "@/lib/auth";
import { FormActions } from "@/components/FormActions";
import { useSsoDiscovery } from "@/lib/sso";
import { pageNavigation } from "@/lib/ssoSession";

export const CONFIRM_TITLE = "Confirm it's you";

export function isReauthRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.body?.type === "reauth_required";
}

/** Where to confirm with the organization's identity provider instead (ADR 0022): the start of a
 * `prompt=login` sign-in that comes back to this page confirmed. */
export function providerConfirmUrl(path: string): string {
  return `/api/auth/sso/start?reauth=1&next=${encodeURIComponent(path)}`;
}

/** The name of the signed-in user's identity provider when their email's domain signs in with one: the
 * cached current user and the sign-in page's own discovery query. */
function useIdentityProvider(): string | null {
  const { user } = useCurrentUser();
  const { data } = useSsoDiscovery(user?.email ?? "");
  return data?.sso && data.providerName ? data.providerName : null;
}

function ConfirmIdentityForm({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const provider = useIdentityProvider();
  const [useCode, setUseCode] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.POST("/api/auth/reauthenticate", { body: useCode ? { password: "", totpCode: value } : { password: value, totpCode: "" } });
      onConfirmed();
    } catch (e) {
      const fields = fieldErrors(e);
      setError(fields.password ?? fields.totpCode ?? errorMessage(e, "Could not confirm your identity"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={CONFIRM_TITLE}>
      <Stack>
        <Text size="sm">For your security, confirm this change with your {useCode ? "authenticator code" : "password"}.</Text>
        {useCode ? (
          <TextInput
            label="Authenticator Code"
            placeholder="Enter 6-digit code"
            inputMode="numeric"
            maxLength={6}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value.replace(/\D/g, "").slice(0, 6))}
            error={error}
            data-autofocus
          />
        ) : (
          <PasswordInput label="Current Password" value={value} onChange={(e) => setValue(e.currentTarget.value)} error={error} data-autofocus />
        )}
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseCode(!useCode);
            setValue("");
            setError(null);
          }}
        >
          {useCode ? "Use my password instead" : "Use an authenticator code instead"}
        </Anchor>
        {provider ? (
          <Stack gap={4}>
            <Button variant="light" onClick={() => pageNavigation.assign(providerConfirmUrl(window.location.pathname + window.location.search))}>
              {`Confirm with ${provider}`}
            </Button>
            <Text size="xs" c="dimmed">
              You sign in again with {provider} and come back to this page; then make the change again.
            </Text>
          </Stack>
        ) : null}
        <FormActions onCancel={onCancel} submitLabel="Confirm" loading={busy} disabled={!value} />
      </Stack>
    </form>
  );
}

/** Opens the confirmation dialog; resolves true once confirmed, false when cancelled. */
export function confirmIdentity(): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      modals.close(id);
      resolve(ok);
    };
    const id = modals.open({
      title: CONFIRM_TITLE,
      centered: true,
      onClose: () => finish(false),
      children: <ConfirmIdentityForm onConfirmed={() => finish(true)} onCancel={() => finish(false)} />,
    });
  });
}

/** Runs `action`; on 403 reauth_required asks the user to confirm and runs it once more. */
export async function withConfirmedIdentity<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isReauthRequired(error)) throw error;
    if (!(await confirmIdentity())) throw error;
    return action();
  }
}
