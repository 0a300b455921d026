import { choices, DateRangeFields, FormSelect, FormSwitch } from "@/components/FormFields";
import { SimpleGrid, TextInput, Textarea } from "@mantine/core";
import { defineRecordForm, RecordFormModal, type RecordDialogProps } from "@/components/RecordFormDialog";
import { showLabel } from "@/components/useRecordDialog";
import { warnOfImpact } from "@/lib/replan";
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

/** The holiday dialog (docs/behaviour/terms-and-holidays.md §1). */
const HOLIDAY_FORM = defineRecordForm({
  model: { schema: holidaySchema, toValues, fetch: fetchHoliday, toSave: (holiday, values) => ({ holiday, values }) },
  text: {
    create: { title: "Add New Holiday", submit: "Create Holiday", saved: "Holiday created successfully", failed: "Failed to create holiday" },
    edit: { title: "Edit Holiday", submit: "Update Holiday", saved: "Holiday updated successfully", failed: "Failed to update holiday" },
  },
  onSaved: (saved: Holiday) => {
    if (saved.isActive) void warnOfImpact({ holidayId: saved.id }, saved.type === "term_break" ? "term break" : "holiday");
  },
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
  display: { type: showLabel(TYPE_LABELS) },
});

/** "Add New Holiday" / "Edit Holiday". */
export function HolidayFormModal({ holiday, ...dialog }: RecordDialogProps & { holiday: Holiday | null }) {
  return (
    <RecordFormModal spec={HOLIDAY_FORM} {...dialog} record={holiday} save={useSaveHoliday()}>
      {(form) => (
        <>
          <TextInput label="Name" withAsterisk {...form.register("name")} error={form.formState.errors.name?.message} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormSelect control={form.control} name="type" label="Type" data={choices(TYPE_LABELS)} fallback="public_holiday" />
            <FormSelect control={form.control} name="year" label="Year" data={formYears().map(String)} numeric />
            <DateRangeFields form={form} />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} {...form.register("description")} />
          <FormSwitch control={form.control} name="isRecurring" label="Recurring every year" />
          <FormSwitch control={form.control} name="isActive" label="Active" />
        </>
      )}
    </RecordFormModal>
  );
}
