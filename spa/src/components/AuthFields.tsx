/** The fields and headings the sign-in, first-time setup and account security screens share (docs/behaviour/accounts.md §2, §4). */
import { Text, TextInput, Title, type TextInputProps } from "@mantine/core";
import type { ReactNode, Ref } from "react";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import { digitsOnly } from "@/lib/format";

type InputProps = TextInputProps & { ref?: Ref<HTMLInputElement> };

/** A card's heading: its title and a line under it. */
export function AuthHeading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <Title order={1} size="h3">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </div>
  );
}

/** The email field of the sign-in and first-time setup forms. */
export function EmailInput(props: InputProps) {
  return <TextInput label="Email" type="email" placeholder="you@example.edu.au" {...props} />;
}

/** The 6-digit authenticator code field: numeric keyboard, one-time-code autofill, at most 6 characters. */
export function AuthenticatorCodeInput(props: InputProps) {
  return <TextInput label="Authenticator Code" placeholder="Enter 6-digit code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...props} />;
}

/** Registers a form's `totpCode` field for `AuthenticatorCodeInput`, keeping only the digits typed. */
export function registerCode<V extends FieldValues & { totpCode?: string }>(form: UseFormReturn<V>) {
  const name = "totpCode" as Path<V>;
  return form.register(name, { onChange: (e) => form.setValue(name, digitsOnly(e.target.value) as PathValue<V, Path<V>>) });
}
