import { Button, Group } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * The buttons under a form's or a dialog's fields: Cancel, then the submit button. Without `onSubmit`
 * the submit button submits the form around it; with it, it runs `onSubmit` (a dialog without a form).
 */
export function FormActions({
  onCancel,
  submitLabel,
  loading,
  disabled,
  onSubmit,
  cancelDisabled,
  leftSection,
}: {
  onCancel: () => void;
  submitLabel: ReactNode;
  loading?: boolean;
  disabled?: boolean;
  onSubmit?: () => void;
  /** Cancel cannot be pressed (while a write that cannot be stopped runs). */
  cancelDisabled?: boolean;
  /** An icon before the submit button's label. */
  leftSection?: ReactNode;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={cancelDisabled}>
        Cancel
      </Button>
      <Button type={onSubmit ? "button" : "submit"} onClick={onSubmit} loading={loading} disabled={disabled} leftSection={leftSection}>
        {submitLabel}
      </Button>
    </Group>
  );
}
