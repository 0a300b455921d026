/**
 * The "Form Validation Errors" list (docs/behaviour/errors.md §2) shown above a form's buttons, the helper that
 * maps a 400 answer's errors onto react-hook-form fields, and a form that hands its values to its page.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { List } from "@mantine/core";
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormSetError } from "react-hook-form";
import type { z } from "zod";
import { fieldErrors } from "@/lib/api";
import { Notice } from "./Notice";

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

/**
 * A zod-checked form whose submit hands its values to `onSubmit` (the page saves and shows the toasts);
 * when that throws, the answer's field errors go on their fields.
 */
export function usePageForm<V extends FieldValues>(schema: z.ZodType<unknown, V>, defaultValues: DefaultValues<V>, onSubmit: (values: V) => Promise<void>) {
  const form = useForm<V>({ resolver: zodResolver(schema as never) as never, defaultValues });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      for (const [key, message] of Object.entries(fieldErrors(error))) {
        form.setError(key as Path<V>, { message });
      }
    }
  });
  return { form, submit };
}
