import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Select, SimpleGrid, Stack, Switch, TextInput, Textarea } from "@mantine/core";
import { StaleChanges } from "../../../components/StaleChanges";
import { useRecordDialog } from "../../../components/useRecordDialog";
import { Controller, useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import { warnOfImpact } from "../../replan/warnOfImpact";
import { fetchHoliday, formYears, holidayDefaults, holidaySchema, TYPE_LABELS, useSaveHoliday, type Holiday, type HolidayFormValues, type HolidayInput } from "../api/holidays";

const FIELDS = ["name", "type", "startDate", "endDate", "description", "isRecurring", "year", "isActive"];
const toValues = (h?: Holiday | null): HolidayFormValues =>
  h
    ? { name: h.name, type: holidaySchema.shape.type.catch("public_holiday").parse(h.type), startDate: h.startDate, endDate: h.endDate, description: h.description ?? "", isRecurring: h.isRecurring, year: h.year, isActive: h.isActive }
    : holidayDefaults();

/** "Add New Holiday" / "Edit Holiday" (delivery.md §2 Holidays, §5 Holiday). */
export function HolidayFormModal({ opened, onClose, holiday }: { opened: boolean; onClose: () => void; holiday: Holiday | null }) {
  const save = useSaveHoliday();
  const { register, control, handleSubmit, reset, setError, formState, getValues } = useForm<HolidayFormValues, unknown, HolidayInput>({
    resolver: zodResolver(holidaySchema),
    defaultValues: toValues(holiday),
  });
  const dialog = useRecordDialog(opened, holiday, reset, toValues, {
    getValues,
    fetchFresh: (h) => fetchHoliday(h.id),
    labels: { name: "Name", type: "Type", year: "Year", startDate: "Start Date", endDate: "End Date", description: "Description", isRecurring: "Recurring every year", isActive: "Active" },
    display: { type: (v: unknown) => TYPE_LABELS[v as keyof typeof TYPE_LABELS] ?? String(v) },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      const saved = await save.mutateAsync({ holiday: current, values });
      notifySuccess(current ? "Holiday updated successfully" : "Holiday created successfully");
      onClose();
      if (saved.isActive) void warnOfImpact({ holidayId: saved.id }, saved.type === "term_break" ? "term break" : "holiday");
    } catch (error) {
      const failure = classifyError(error);
      const title = current ? "Failed to update holiday" : "Failed to create holiday";
      if (failure.kind === "validation") {
        setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
        notifyError(title, failure.messages[0] ?? "Please check your information.");
      } else if (failure.kind === "stale") {
        await dialog.onStale();
      } else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Holiday" : "Add New Holiday"} size="lg">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={control}
              name="type"
              render={({ field }) => (
                <Select label="Type" data={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))} value={field.value} onChange={(v) => field.onChange(v ?? "public_holiday")} allowDeselect={false} />
              )}
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
          <Controller control={control} name="isRecurring" render={({ field }) => <Switch label="Recurring every year" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />} />
          <Controller control={control} name="isActive" render={({ field }) => <Switch label="Active" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />} />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Holiday" : "Create Holiday"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
