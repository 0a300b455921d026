import { FormSelect, FormSwitch } from "../../../components/FormFields";
import { Select, SimpleGrid, TextInput, Textarea } from "@mantine/core";
import { Controller } from "react-hook-form";
import { RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { warnOfImpact } from "../../replan/warnOfImpact";
import { fetchHoliday, formYears, holidayDefaults, holidaySchema, TYPE_LABELS, useSaveHoliday, type Holiday, type HolidayFormValues } from "../api/holidays";

const toValues = (h?: Holiday | null): HolidayFormValues =>
  h
    ? {
        name: h.name,
        type: holidaySchema.shape.type.catch("public_holiday").parse(h.type),
        startDate: h.startDate,
        endDate: h.endDate,
        description: h.description ?? "",
        isRecurring: h.isRecurring,
        year: h.year,
        isActive: h.isActive,
      }
    : holidayDefaults();

const TEXT: DialogText = { create: ["Add New Holiday", "Create Holiday"], edit: ["Edit Holiday", "Update Holiday"] };

/** "Add New Holiday" / "Edit Holiday" (delivery.md §2 Holidays, §5 Holiday). */
export function HolidayFormModal({ opened, onClose, holiday }: { opened: boolean; onClose: () => void; holiday: Holiday | null }) {
  const save = useSaveHoliday();
  const record = useRecordForm({
    opened,
    record: holiday,
    schema: holidaySchema,
    toValues,
    fields: ["name", "type", "startDate", "endDate", "description", "isRecurring", "year", "isActive"],
    stale: {
      fetchFresh: (h) => fetchHoliday(h.id),
      labels: {
        name: "Name",
        type: "Type",
        year: "Year",
        startDate: "Start Date",
        endDate: "End Date",
        description: "Description",
        isRecurring: "Recurring every year",
        isActive: "Active",
      },
      display: { type: (v: unknown) => TYPE_LABELS[v as keyof typeof TYPE_LABELS] ?? String(v) },
    },
    save: (current, values) => save.mutateAsync({ holiday: current, values }),
    onClose,
    savedText: ["Holiday created successfully", "Holiday updated successfully"],
    onSaved: (saved) => {
      if (saved.isActive) void warnOfImpact({ holidayId: saved.id }, saved.type === "term_break" ? "term break" : "holiday");
    },
    failedTitle: ["Failed to create holiday", "Failed to update holiday"],
  });
  const { register, control, formState } = record.form;
  const editing = !!record.current;
  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!editing} text={TEXT} record={record} saving={save.isPending}>
      <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormSelect
          control={control}
          name="type"
          label="Type"
          data={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))}
          fallback="public_holiday"
        />
        <Controller
          control={control}
          name="year"
          render={({ field }) => (
            <Select label="Year" data={formYears().map(String)} value={String(field.value)} onChange={(v) => field.onChange(Number(v))} allowDeselect={false} />
          )}
        />
        <TextInput type="date" label="Start Date" withAsterisk {...register("startDate")} error={formState.errors.startDate?.message} />
        <TextInput type="date" label="End Date" withAsterisk {...register("endDate")} error={formState.errors.endDate?.message} />
      </SimpleGrid>
      <Textarea label="Description" autosize minRows={2} {...register("description")} />
      <FormSwitch control={control} name="isRecurring" label="Recurring every year" />
      <FormSwitch control={control} name="isActive" label="Active" />
    </RecordFormDialog>
  );
}
