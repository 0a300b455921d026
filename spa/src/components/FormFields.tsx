/**
 * Form fields bound to react-hook-form (issue 22: one pattern instead of a Controller wired by hand in
 * every dialog): a switch, a number and a select whose value never becomes null.
 */
import { NumberInput, Select, Switch, type NumberInputProps, type SelectProps } from "@mantine/core";
import { Controller, type Control, type FieldValues, type Path } from "react-hook-form";

interface Bound<V extends FieldValues> {
  // biome-ignore lint/suspicious/noExplicitAny: any submitted type: the dialogs' forms transform their values (zod's output) on submit
  control: Control<V, any, any>;
  name: Path<V>;
}

export function FormSwitch<V extends FieldValues>({ control, name, label, description }: Bound<V> & { label: string; description?: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch label={label} description={description} checked={!!field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
      )}
    />
  );
}

export function FormNumber<V extends FieldValues>({ control, name, ...props }: Bound<V> & Omit<NumberInputProps, "value" | "onChange" | "onBlur">) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput clampBehavior="none" {...props} value={field.value as number | string} onChange={field.onChange} onBlur={field.onBlur} />
      )}
    />
  );
}

/** A select that keeps a value: clearing it gives `fallback` (the field's default). */
export function FormSelect<V extends FieldValues>({
  control,
  name,
  fallback,
  ...props
}: Bound<V> & Omit<SelectProps, "value" | "onChange"> & { fallback: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select allowDeselect={false} {...props} value={field.value == null ? null : String(field.value)} onChange={(v) => field.onChange(v ?? fallback)} />
      )}
    />
  );
}
