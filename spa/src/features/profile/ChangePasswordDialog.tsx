import { Alert, PasswordInput, Text } from "@mantine/core";
import { FormDialog, preventingDefault } from "@/components/FormDialog";
import { useState } from "react";
import { ApiError, errorMessage } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useChangePassword } from "./api";

export const MISMATCH = { title: "Password mismatch", message: "New password and confirmation do not match." };
export const TOO_WEAK = { title: "Password too weak", message: "Password must be at least 12 characters long." };

/** Client-side checks of the change-password dialog (docs/behaviour/accounts.md §5); null when the values may be sent. */
export function checkNewPassword(newPassword: string, confirmPassword: string): { title: string; message: string } | null {
  if (newPassword !== confirmPassword) return MISMATCH;
  if (newPassword.length < 12) return TOO_WEAK;
  return null;
}

function serverProblem(error: unknown): string {
  if (error instanceof ApiError && error.body?.errors?.length) {
    return error.body.errors.map((e) => e.message).join(" ");
  }
  return errorMessage(error, "Password change failed");
}

/** The Change Password dialog: current, new, confirm; submit disabled until all three are filled. */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<{ title: string; message: string } | null>(null);
  const change = useChangePassword();

  const close = () => {
    setCurrent("");
    setNext("");
    setConfirm("");
    setProblem(null);
    onClose();
  };

  const submit = async () => {
    const check = checkNewPassword(next, confirm);
    setProblem(check);
    if (check) {
      notifyError(check.title, check.message);
      return;
    }
    try {
      await change.mutateAsync({ currentPassword: current, newPassword: next, confirmPassword: confirm });
      notifySuccess("Password changed", "Your password has been updated successfully.");
      close();
    } catch (error) {
      const message = serverProblem(error);
      setProblem({ title: "Password change failed", message });
      notifyError("Password change failed", message);
    }
  };

  const filled = current !== "" && next !== "" && confirm !== "";
  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title="Change Password"
      centered
      label="Change password"
      onSubmit={preventingDefault(submit)}
      submitLabel="Change Password"
      disabled={!filled}
      loading={change.isPending}
    >
      <Text size="sm" c="dimmed">
        Use at least 12 characters with uppercase, lowercase, a number and a special character.
      </Text>
      {problem ? (
        <Alert color="red" title={problem.title} role="alert">
          {problem.message}
        </Alert>
      ) : null}
      <PasswordInput label="Current Password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.currentTarget.value)} />
      <PasswordInput label="New Password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.currentTarget.value)} />
      <PasswordInput label="Confirm New Password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} />
    </FormDialog>
  );
}
