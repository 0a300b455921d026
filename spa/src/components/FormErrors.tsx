/**
 * The "Form Validation Errors" list (delivery.md §5) shown above a form's buttons, and the helper that
 * maps a 400 answer's errors onto react-hook-form fields.
 */
import { List } from "@mantine/core";
import { Notice } from "./Notice";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";

export function FormErrorList({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  return (
    <Notice color="red" title="Form Validation Errors" role="alert" data-testid="form-errors">
      <List size="sm">
        {messages.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a list rendered whole from one answer; messages may repeat and have no identity
          <List.Item key={i}>{m}</List.Item>
        ))}
      </List>
    </Notice>
  );
}

/** Sets each server field error on the form (paths are camelCase field names); returns all messages. */
export function applyFieldErrors<T extends FieldValues>(fields: Record<string, string>, setError: UseFormSetError<T>, known: readonly string[]): string[] {
  const messages: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const key = path.split(".")[0];
    if (known.includes(key)) setError(key as Path<T>, { type: "server", message });
    messages.push(message);
  }
  return messages;
}
