/**
 * One pattern for the record dialogs (issue 22): the dialog frame, the submit, the server's answers and
 * the toasts, so that each dialog keeps only its fields and its spec messages.
 *
 * - `useRecordForm` wires react-hook-form (zod), `useRecordDialog` (the record being edited, the 412
 *   compare of ADR 0017) and the submit: save, then `onSaved`; a 412 is handled here for every dialog
 *   (`dialog.onStale`), any other failure goes to `onFailed` with helpers for the usual answers.
 * - `standardFailure(title)` is the usual `onFailed`: field errors of a 400/409 on their fields and in the
 *   "Form Validation Errors" list with the first one in a red toast, otherwise the server's message.
 * - `RecordFormDialog` is the frame: Modal, form, the stale compare, the fields, the list of server
 *   messages, Cancel and the submit button.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Stack, type ModalProps } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { applyFieldErrors, FormErrorList } from "./FormErrors";
import { classifyError, notifyError, notifySuccess, type SaveFailure as Failure } from "./Notify";
import { StaleChanges } from "./StaleChanges";
import { useRecordDialog, type StaleOptions } from "./useRecordDialog";

export interface FailureHelpers {
  /** Put the answer's field errors on their fields; returns the messages of every field error. */
  applyFields: (failure: Failure) => string[];
  /** Show messages in the dialog's "Form Validation Errors" list. */
  setServerMessages: (messages: string[]) => void;
  /** Mark one field with a server message. */
  setFieldError: (field: string, message: string) => void;
  /** Whether the dialog edits a record (false: creates one). */
  editing: boolean;
}

export type { Failure };

export interface RecordFormOptions<T extends { id: string }, V extends FieldValues, I, R> {
  opened: boolean;
  record: T | null | undefined;
  schema: z.ZodType<I, V>;
  toValues: (record: T | null | undefined) => V;
  /** The form fields the server's field errors may name. */
  fields: readonly string[];
  stale: Omit<StaleOptions<T, V>, "getValues">;
  save: (record: T | null, values: I) => Promise<R>;
  /** Closes the dialog after a save. */
  onClose: () => void;
  /** The success toasts: [created, updated]. */
  savedText: readonly [string, string];
  /** After the toast and the close (a follow-up such as the re-plan notice). */
  onSaved?: (saved: R, editing: boolean) => void;
  /** The red toast's titles for `standardFailure`: [create, update]; or `onFailed` for the dialog's own texts. */
  failedTitle?: readonly [string, string];
  onFailed?: (failure: Failure, helpers: FailureHelpers) => void;
  /** Before each save (clear the dialog's own messages, such as a list of clashes). */
  onSubmitting?: () => void;
}

export function useRecordForm<T extends { id: string }, V extends FieldValues, I, R>(options: RecordFormOptions<T, V, I, R>) {
  const form = useForm<V, unknown, I>({
    // zod's input and output types are the form's values and the submitted input.
    resolver: zodResolver(options.schema as never) as never,
    defaultValues: options.toValues(options.record) as DefaultValues<V>,
  });
  const { handleSubmit, reset, setError, getValues } = form;
  const dialog = useRecordDialog<T, V>(options.opened, options.record, reset as (values: V) => void, options.toValues, {
    ...options.stale,
    getValues: getValues as () => V,
  });
  const { current, setServerMessages, clearServerState } = dialog;
  const helpers: FailureHelpers = {
    applyFields: (failure) =>
      "fields" in failure ? applyFieldErrors(failure.fields, (field, error) => setError(field as Path<V>, error), options.fields) : [],
    setServerMessages,
    setFieldError: (field, message) => setError(field as Path<V>, { type: "server", message }),
    editing: !!current,
  };
  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    options.onSubmitting?.();
    try {
      const saved = await options.save(current, values);
      notifySuccess(options.savedText[current ? 1 : 0]);
      options.onClose();
      options.onSaved?.(saved, !!current);
    } catch (error) {
      const failure = classifyError(error);
      if (failure.kind === "stale") await dialog.onStale();
      else if (options.onFailed) options.onFailed(failure, helpers);
      else standardFailure(options.failedTitle?.[current ? 1 : 0] ?? "Save failed")(failure, helpers);
    }
  });
  return { form: form as UseFormReturn<V, unknown, I>, dialog, onSubmit, current };
}

/** The usual failure handling of a record dialog (see the module). */
export function standardFailure(title: string) {
  return (failure: Failure, { applyFields, setServerMessages }: FailureHelpers) => {
    if (failure.kind === "validation" || failure.kind === "duplicate") {
      const messages = applyFields(failure);
      setServerMessages(messages);
      const fallback = "messages" in failure ? failure.messages[0] : "message" in failure ? failure.message : undefined;
      notifyError(title, messages[0] ?? fallback ?? "Please check your information.");
    } else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
  };
}

type DialogState = Pick<ReturnType<typeof useRecordDialog>, "formRef" | "serverMessages" | "stale" | "staleFields" | "staleTaken" | "takeTheirs" | "keepMine">;

/**
 * The failure texts of delivery.md §8 for the unit and study plan dialogs: "You are logged out. Logging in
 * again...", "Please check your form inputs - some fields have validation errors." (with the list),
 * "Server error occurred. Please try again.", else the server's message or `fallback`; `duplicate` (a
 * unit's code) marks the code field.
 */
export function deliveryFailure(title: string, fallback: string, duplicate?: string) {
  return (failure: Failure, { applyFields, setServerMessages, setFieldError }: FailureHelpers) => {
    if (failure.kind === "unauthorized") notifyError(title, "You are logged out. Logging in again...");
    else if (failure.kind === "validation") {
      notifyError(title, "Please check your form inputs - some fields have validation errors.");
      setServerMessages(applyFields(failure));
    } else if (failure.kind === "duplicate" && duplicate) {
      notifyError(title, duplicate);
      setFieldError("code", duplicate);
    } else if (failure.kind === "server") notifyError(title, "Server error occurred. Please try again.");
    else notifyError(title, ("message" in failure && failure.message) || fallback);
  };
}

/** A record dialog's title and submit button, [title, submit], when it creates and when it edits. */
export type DialogText = { create: readonly [string, string]; edit: readonly [string, string] };

/** The frame of a record dialog: Modal, form, stale compare, fields, server messages, Cancel and submit. */
export function RecordFormDialog({
  opened,
  onClose,
  editing,
  text,
  size = "lg",
  record,
  saving,
  children,
  after,
}: {
  opened: boolean;
  onClose: () => void;
  /** Edit an existing record (else create one): chooses the texts. */
  editing: boolean;
  text: DialogText;
  size?: ModalProps["size"];
  record: { dialog: DialogState; onSubmit: (event?: FormEvent) => Promise<void> };
  saving: boolean;
  children: ReactNode;
  /** Shown under the form inside the dialog (a record's history). */
  after?: ReactNode;
}) {
  const { dialog, onSubmit } = record;
  const [title, submitLabel] = editing ? text.edit : text.create;
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size}>
      <form ref={dialog.formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          {children}
          <FormErrorList messages={dialog.serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
      {after}
    </Modal>
  );
}
