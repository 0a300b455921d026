/**
 * One pattern for the record dialogs (ADR 0021): the dialog frame, the submit, the server's answers and
 * the toasts, so that each dialog keeps only its fields and its spec messages.
 *
 * - A dialog's `RecordFormSpec` is what does not change while it is shown: its record's `model` (schema,
 *   form values, fetch and save), its texts when creating and when editing, its failure messages and the
 *   labels of its fields.
 * - `useRecordForm` wires react-hook-form (zod), `useRecordDialog` (the record being edited, the 412
 *   compare of ADR 0017) and the submit: save, then the success toast, the close and `onSaved`; a 412 is
 *   handled here for every dialog (`dialog.onStale`), any other failure goes to `onFailed` with helpers for
 *   the usual answers (by default `standardFailure` with the dialog's `failed` title).
 * - `standardFailure(title)` is the usual `onFailed`: field errors of a 400/409 on their fields and in the
 *   "Form Validation Errors" list with the first one in a red toast, otherwise the server's message.
 * - `RecordFormDialog` is the frame: Modal, form, the stale compare, the fields, the list of server
 *   messages, Cancel and the submit button, with the dialog's title and submit text.
 *   `RecordFormModal` is both in one, for a dialog whose fields need nothing but the form.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import type { ModalProps } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, type ReactNode, useEffect, useRef } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { FormDialog } from "./FormDialog";
import { applyFieldErrors, FormErrorList } from "./FormErrors";
import { classifyError, notifyError, notifySuccess, type SaveFailure as Failure } from "./Notify";
import { StaleChanges } from "./StaleChanges";
import { useRecordDialog } from "./useRecordDialog";

/** What a page gives a record dialog besides the record: whether it is open, and how to close it. */
export interface RecordDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** What a record form says after a save, in one mode (creating or editing): the success toast and, for `standardFailure`, the red toast's title. */
export interface RecordFormText {
  saved: string;
  failed?: string;
}

/** What a record dialog says in one mode (docs/behaviour/screens.md §1; docs/behaviour/errors.md §9): its title, its submit button and its toasts. */
export interface RecordDialogText extends RecordFormText {
  title: string;
  submit: string;
}

/**
 * How a record form reads and writes its record: the form's schema, the form's values for a record (or
 * for a new one), the fresh record after a 412 (by id), and the save mutation's variables for the record
 * edited (null when creating) and the submitted input.
 */
export interface RecordModel<T extends { id: string }, V extends FieldValues, I, M = unknown> {
  schema: z.ZodType<I, V>;
  toValues: (record: T | null | undefined) => V;
  fetch: (id: string, record: T) => Promise<T>;
  toSave: (record: T | null, values: I) => M;
}

export interface FailureHelpers {
  /** Put the answer's field errors on their fields; returns the messages of every field error. */
  applyFields: (failure: Failure) => string[];
  /** Show messages in the dialog's "Form Validation Errors" list (those already on a field are left out). */
  setServerMessages: (messages: string[]) => void;
  /** Mark one field with a server message. */
  setFieldError: (field: string, message: string) => void;
  /** Whether the dialog edits a record (false: creates one). */
  editing: boolean;
}

export type { Failure };

/** What a record dialog is made of besides its fields and its state (see the module). */
export interface RecordFormSpec<T extends { id: string }, V extends FieldValues, I, R = T, X extends RecordFormText = RecordDialogText, M = unknown> {
  model: RecordModel<T, V, I, M>;
  text: { create: X; edit: X };
  /** After the toast and the close (a follow-up such as the re-plan notice). */
  onSaved?: (saved: R, editing: boolean) => void;
  /** The dialog's own failure texts; by default `standardFailure` with the mode's `failed` title. */
  onFailed?: (failure: Failure, helpers: FailureHelpers) => void;
  /** The form's fields with their labels as on the form: compared after a 412. */
  labels: Partial<Record<keyof V & string, string>>;
  /** How a field's value reads in that compare (a select's label for its id); the default shows text, Yes/No, lists. */
  display?: Partial<Record<keyof V & string, (value: unknown) => string>>;
  /** The form fields the server's field errors may name; by default the fields of `labels`. */
  fields?: readonly string[];
}

/** A dialog's spec, with its types taken from its model, its texts and its handlers. */
export function defineRecordForm<T extends { id: string }, V extends FieldValues, I, R = T, X extends RecordFormText = RecordDialogText, M = unknown>(
  spec: RecordFormSpec<T, V, I, R, X, M>,
) {
  return spec;
}

/** The save mutation of a record (react-query's `useMutation` result). */
export interface SaveMutation<M, R> {
  mutateAsync: (variables: M) => Promise<R>;
  isPending: boolean;
}

export interface RecordFormOptions<T extends { id: string }, V extends FieldValues, I, R, X extends RecordFormText, M>
  extends RecordFormSpec<T, V, I, R, X, M>,
    RecordDialogProps {
  record: T | null | undefined;
  save: SaveMutation<M, R>;
  /** Before each save (clear the dialog's own messages, such as a list of clashes). */
  onSubmitting?: () => void;
}

export function useRecordForm<T extends { id: string }, V extends FieldValues, I, R, X extends RecordFormText, M>(
  options: RecordFormOptions<T, V, I, R, X, M>,
) {
  const { model, labels } = options;
  const form = useForm<V, unknown, I>({
    // zod's input and output types are the form's values and the submitted input.
    resolver: zodResolver(model.schema as never) as never,
    defaultValues: model.toValues(options.record) as DefaultValues<V>,
  });
  const { handleSubmit, reset, setError, getValues } = form;
  const dialog = useRecordDialog<T, V>(options.opened, options.record, reset as (values: V) => void, model.toValues, {
    fetchFresh: (record) => model.fetch(record.id, record),
    labels,
    display: options.display,
    getValues: getValues as () => V,
  });
  const { current, setServerMessages, clearServerState } = dialog;
  const editing = !!current;
  const known = options.fields ?? Object.keys(labels);
  // The fields the server refused (a code that already exists, say): changing one clears its message,
  // the list of server messages and the failure's toast (ADR 0018), before the next save says more.
  const refused = useRef(new Set<string>());
  // The messages shown on a field by this failure: the list under the form does not repeat them, so a
  // message shows once in the dialog (ADR 0018).
  const onFields = useRef(new Set<string>());
  const markField = (field: string, message: string) => {
    refused.current.add(field);
    onFields.current.add(message);
    setError(field as Path<V>, { type: "server", message });
  };
  const helpers: FailureHelpers = {
    applyFields: (failure) => ("fields" in failure ? applyFieldErrors(failure.fields, (field, error) => markField(field, error.message ?? ""), known) : []),
    setServerMessages: (messages) => setServerMessages(messages.filter((m) => !onFields.current.has(m))),
    setFieldError: markField,
    editing,
  };
  const { watch, clearErrors } = form;
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      if (!name || !refused.current.has(name)) return;
      refused.current.delete(name);
      clearErrors(name as Path<V>);
      setServerMessages([]);
      notifications.clean();
    });
    return () => subscription.unsubscribe();
  }, [watch, clearErrors, setServerMessages]);
  const text = editing ? options.text.edit : options.text.create;
  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    refused.current.clear();
    onFields.current.clear();
    options.onSubmitting?.();
    try {
      const saved = await options.save.mutateAsync(model.toSave(current, values));
      notifySuccess(text.saved);
      options.onClose();
      options.onSaved?.(saved, editing);
    } catch (error) {
      const failure = classifyError(error);
      if (failure.kind === "stale") await dialog.onStale();
      else if (options.onFailed) options.onFailed(failure, helpers);
      else standardFailure(text.failed ?? "Save failed")(failure, helpers);
    }
  });
  return {
    form: form as UseFormReturn<V, unknown, I>,
    dialog,
    onSubmit,
    current,
    editing,
    /** The texts of the mode the dialog is in (creating or editing). */
    text,
    saving: options.save.isPending,
    opened: options.opened,
    onClose: options.onClose,
  };
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
 * The failure texts of docs/behaviour/errors.md §9 for the unit and study plan dialogs: "You are logged out. Logging in
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

/** The frame of a record dialog: Modal, form, stale compare, fields, server messages, Cancel and submit. */
export function RecordFormDialog({
  record,
  size = "lg",
  children,
  after,
}: {
  /** The dialog's `useRecordForm`: whether it is open, its texts, the record edited, the submit. */
  record: RecordDialogProps & { text: RecordDialogText; saving: boolean; dialog: DialogState; onSubmit: (event?: FormEvent) => Promise<void> };
  size?: ModalProps["size"];
  children: ReactNode;
  /** Shown under the form inside the dialog (a record's history). */
  after?: ReactNode;
}) {
  const { dialog, text } = record;
  return (
    <FormDialog
      opened={record.opened}
      onClose={record.onClose}
      title={text.title}
      size={size}
      formRef={dialog.formRef}
      onSubmit={record.onSubmit}
      submitLabel={text.submit}
      loading={record.saving}
      after={after}
    >
      <StaleChanges dialog={dialog} />
      {children}
      <FormErrorList messages={dialog.serverMessages} />
    </FormDialog>
  );
}

/**
 * A record dialog whose fields need nothing but the form: `useRecordForm` with the dialog's `spec` and
 * `save` mutation, in `RecordFormDialog`; `children` renders the fields.
 */
export function RecordFormModal<T extends { id: string }, V extends FieldValues, I, R, M>({
  spec,
  record,
  save,
  size,
  children,
  ...dialog
}: RecordDialogProps & {
  spec: RecordFormSpec<T, V, I, R, RecordDialogText, M>;
  record: T | null | undefined;
  save: SaveMutation<M, R>;
  size?: ModalProps["size"];
  children: (form: UseFormReturn<V, unknown, I>) => ReactNode;
}) {
  const form = useRecordForm({ ...spec, ...dialog, record, save });
  return (
    <RecordFormDialog record={form} size={size}>
      {children(form.form)}
    </RecordFormDialog>
  );
}
