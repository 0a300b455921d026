import { Modal, Stack, type ModalProps } from "@mantine/core";
import type { FormEvent, ReactNode, Ref } from "react";
import { FormActions } from "./FormActions";

/**
 * A dialog holding one form: its fields (`children`), then Cancel and the submit button. Cancel and the
 * dialog's close button both call `onClose`; `after` is shown under the form (a record's history).
 */
export function FormDialog({
  opened,
  onClose,
  title,
  size,
  centered,
  label,
  formRef,
  onSubmit,
  submitLabel,
  loading,
  disabled,
  children,
  after,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: ModalProps["size"];
  centered?: boolean;
  /** The form's accessible name. */
  label?: string;
  formRef?: Ref<HTMLFormElement>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: ReactNode;
  loading?: boolean;
  disabled?: boolean;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered={centered}>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-label={label}>
        <Stack>
          {children}
          <FormActions onCancel={onClose} submitLabel={submitLabel} loading={loading} disabled={disabled} />
        </Stack>
      </form>
      {after}
    </Modal>
  );
}

/** A form's submit handled by hand: the page does not reload, `submit` runs. */
export const preventingDefault = (submit: () => void) => (event: FormEvent) => {
  event.preventDefault();
  submit();
};
