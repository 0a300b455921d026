/**
 * Form fields bound to react-hook-form (one pattern instead of a Controller wired by hand in
 * every dialog): a switch, a number, a select whose value never becomes null, a select that may be left
 * empty (a record to pick), a choice of several, a text with suggestions, and the dates of a period.
 */
import {
  Autocomplete,
  MultiSelect,
  NumberInput,
  Select,
  Switch,
  TextInput,
  type AutocompleteProps,
  type MultiSelectProps,
  type NumberInputProps,
  type SelectProps,
} from "@mantine/core";
import { Controller, type Control, type FieldErrors, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";

interface Bound<V extends FieldValues> {
  // biome-ignore lint/suspicious/noExplicitAny: any submitted type: the dialogs' forms transform their values (zod's output) on submit
  control: Control<V, any, any>;
  name: Path<V>;
}

/** The options of a select from a map of value to label (a status, a type, a level). */
export const choices = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));

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

/**
 * A select that keeps a value (it cannot be deselected): clearing a clearable one gives `fallback` (the
 * field's default). With `numeric` the field holds the chosen option as a number (a year, a day of the week).
 */
export function FormSelect<V extends FieldValues>({
  control,
  name,
  fallback,
  numeric,
  ...props
}: Bound<V> & Omit<SelectProps, "value" | "onChange"> & { fallback?: string; numeric?: boolean }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          allowDeselect={false}
          {...props}
          value={field.value == null ? null : String(field.value)}
          onChange={(v) => field.onChange(numeric ? Number(v ?? fallback) : (v ?? fallback))}
        />
      )}
    />
  );
}

/**
 * A select that may be left empty, such as the record a form links to (a course, a campus, a unit):
 * no choice is shown as an empty select and stored as `none` ("" by default, or null for a nullable field).
 */
export function FormPicker<V extends FieldValues>({
  control,
  name,
  none = "",
  ...props
}: Bound<V> & Omit<SelectProps, "value" | "onChange" | "onBlur"> & { none?: "" | null }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => <Select {...props} value={field.value || null} onChange={(v) => field.onChange(v ?? none)} onBlur={field.onBlur} />}
    />
  );
}

/** A select of several options (a linked group's block groups) bound to a list field. */
export function FormMultiSelect<V extends FieldValues>({ control, name, ...props }: Bound<V> & Omit<MultiSelectProps, "value" | "onChange">) {
  return <Controller control={control} name={name} render={({ field }) => <MultiSelect {...props} value={field.value} onChange={field.onChange} />} />;
}

/** A text field with suggestions (a room's code, a cluster's name): any text, or one of `data`. */
export function FormAutocomplete<V extends FieldValues>({ control, name, ...props }: Bound<V> & Omit<AutocompleteProps, "value" | "onChange">) {
  return <Controller control={control} name={name} render={({ field }) => <Autocomplete {...props} value={field.value ?? ""} onChange={field.onChange} />} />;
}

interface Period {
  startDate: string;
  endDate?: string;
}

/**
 * The "Start Date" and "End Date" of a period (a holiday, a leave, a block group), both required; with
 * `optionalEnd` (its description) the end date may be left empty.
 */
export function DateRangeFields<V extends FieldValues & Period>({
  form,
  optionalEnd,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: any submitted type, as in Bound
  form: UseFormReturn<V, any, any>;
  optionalEnd?: string;
}) {
  const errors = form.formState.errors as FieldErrors<Period>;
  return (
    <>
      <TextInput type="date" label="Start Date" withAsterisk {...form.register("startDate" as Path<V>)} error={errors.startDate?.message} />
      <TextInput
        type="date"
        label="End Date"
        withAsterisk={!optionalEnd}
        description={optionalEnd}
        {...form.register("endDate" as Path<V>)}
        error={errors.endDate?.message}
      />
    </>
  );
}
