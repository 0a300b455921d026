/**
 * The pieces the list pages share (courses, units, study plans, block groups, teachers, holidays, rooms,
 * timetables): the states of a loaded list, the record cards with their actions, the "Add" buttons, the
 * dialog state of create/edit, and the confirmation before a destructive action with its toasts.
 */
import { ActionIcon, Button, Card, Group, Stack, Text, TextInput, Title, type ActionIconProps } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconEdit, IconPlus, IconSearch, IconTrash } from "@tabler/icons-react";
import { forwardRef, useState, type ComponentPropsWithoutRef, type ReactNode } from "react";
import { Link } from "react-router";
import { classifyError, notifyError, notifySuccess } from "./Notify";

/**
 * What a list shows: `loading` while it loads, `failed` when it could not load, `empty` when it has no
 * rows, else its rows drawn by `children`. `loading` and `failed` are false when they do not apply.
 */
export function ListStates<T>({
  rows,
  loading,
  failed = false,
  empty,
  children,
}: {
  rows: T[] | undefined;
  loading: ReactNode;
  failed?: ReactNode;
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  if (loading) return loading;
  if (failed) return failed;
  if (!rows?.length) return empty;
  return children(rows);
}

/** The create/edit dialog of a list: whether it is open and the record it edits (none: create). */
export function useEditDialog<T>() {
  const [opened, setOpened] = useState(false);
  const [editing, setEditing] = useState<T | null>(null);
  return {
    opened,
    editing,
    /** Opens the dialog on a record, or empty (null) to create one. */
    open: (record: T | null) => {
      setEditing(record);
      setOpened(true);
    },
    close: () => setOpened(false),
  };
}

/**
 * Asks before a destructive action on a record (delete, deactivate, remove): the question in a red
 * confirmation dialog whose confirm button reads `confirm`; `onConfirm` runs the action.
 */
export function confirmDestructive({
  title,
  message,
  confirm = "Delete",
  onConfirm,
}: {
  title: string;
  message: ReactNode;
  confirm?: string;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title,
    children: <Text size="sm">{message}</Text>,
    labels: { confirm, cancel: "Cancel" },
    confirmProps: { color: "red" },
    onConfirm,
  });
}

/**
 * The toasts of an action's outcome, as a mutation's callbacks: `done` on success; on failure `failed`
 * ([title, message]), or with a title only, the server's reason ("Please try again." when it gives none).
 */
export function outcomeToasts(done: string, failed: [title: string, message: string] | string) {
  return {
    onSuccess: () => notifySuccess(done),
    onError: (error: unknown) => {
      if (typeof failed !== "string") return notifyError(...failed);
      const failure = classifyError(error);
      notifyError(failed, ("message" in failure && failure.message) || "Please try again.");
    },
  };
}

/**
 * Asks before a destructive action (`confirmDestructive`) and on confirm runs the mutation on `variables`
 * with the toasts of its outcome (`outcomeToasts`: `done`, or `failed`).
 */
export function confirmAndMutate<V>(
  mutation: { mutate: (variables: V, callbacks: ReturnType<typeof outcomeToasts>) => void },
  variables: V,
  { done, failed, ...question }: { title: string; message: ReactNode; confirm?: string; done: string; failed: Parameters<typeof outcomeToasts>[1] },
) {
  confirmDestructive({ ...question, onConfirm: () => mutation.mutate(variables, outcomeToasts(done, failed)) });
}

/** A list page's search box; the page filters its loaded list as the user types. */
export function ListSearch({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: "100%", sm: 320 }}
    />
  );
}

/** A list page's "Add ..." (or "Create ...") button. */
export function AddButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button leftSection={<IconPlus size={16} />} onClick={onClick}>
      {children}
    </Button>
  );
}

/** The head of a record card (see RecordCardTitle). */
export interface RecordCardHead {
  name: ReactNode;
  to?: string;
  subtitle?: ReactNode;
  monospace?: boolean;
  tag: ReactNode;
}

/**
 * A record's card in a list page's grid: its head (`title`, when it has the usual one), its content, then
 * its action buttons at the bottom right.
 */
export function RecordCard({ testId, title, actions, children }: { testId: string; title?: RecordCardHead; actions: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" data-testid={testId}>
      <Stack gap="xs" h="100%">
        {title ? <RecordCardTitle {...title} /> : null}
        {children}
        <Group justify="flex-end" gap="xs" mt="auto">
          {actions}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The head of a record card: its name (a link to its page with `to`), a dimmed line under it (the code,
 * in monospace with `monospace`), and a tag on the right.
 */
function RecordCardTitle({ name, to, subtitle, monospace, tag }: RecordCardHead) {
  const heading = (
    <Title order={2} size="h4">
      {to ? (
        <Link to={to} style={{ color: "inherit" }}>
          {name}
        </Link>
      ) : (
        name
      )}
    </Title>
  );
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap">
      {subtitle === undefined ? (
        heading
      ) : (
        <Stack gap={2}>
          {heading}
          <Text size="sm" c="dimmed" ff={monospace ? "monospace" : undefined}>
            {subtitle}
          </Text>
        </Stack>
      )}
      {tag}
    </Group>
  );
}

/** A record card's small "Edit" button. */
export function CardEditButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="light" size="xs" leftSection={<IconEdit size={14} />} onClick={onClick}>
      Edit
    </Button>
  );
}

type IconActionProps = { label: string; onClick: () => void } & Omit<ActionIconProps, "children" | "color"> &
  Omit<ComponentPropsWithoutRef<"button">, "color" | "style">;

/** An icon button that edits a record, named by `label` ("Edit room R101"); it can sit in a Tooltip. */
export const EditAction = forwardRef<HTMLButtonElement, IconActionProps>(function EditAction({ label, variant = "light", ...rest }, ref) {
  return (
    <ActionIcon ref={ref} variant={variant} aria-label={label} {...rest}>
      <IconEdit size={16} />
    </ActionIcon>
  );
});

/** A red icon button that deletes (or removes) a record, named by `label` ("Delete room R101"); it can sit in a Tooltip. */
export const DeleteAction = forwardRef<HTMLButtonElement, IconActionProps>(function DeleteAction({ label, variant = "light", ...rest }, ref) {
  return (
    <ActionIcon ref={ref} variant={variant} color="red" aria-label={label} {...rest}>
      <IconTrash size={16} />
    </ActionIcon>
  );
});
