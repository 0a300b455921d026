import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, TextInput, Textarea } from "@mantine/core";
import { StaleChanges } from "../../../components/StaleChanges";
import { showValue, useRecordDialog } from "../../../components/useRecordDialog";
import { Controller, useForm, useWatch } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
import {
  AVAILABILITY_LABELS,
  EMPLOYMENT_LABELS,
  fetchTeacher,
  TEACHER_DEFAULTS,
  teacherSchema,
  useSaveTeacher,
  type Teacher,
  type TeacherFormValues,
  type TeacherInput,
} from "../api/teachers";

const FIELDS = Object.keys(TEACHER_DEFAULTS);
const toValues = (t?: Teacher | null): TeacherFormValues =>
  t
    ? {
        employeeId: t.employeeId,
        firstName: t.firstName,
        lastName: t.lastName,
        email: t.email,
        phone: t.phone ?? "",
        jobTitle: t.jobTitle ?? "",
        employmentType: teacherSchema.shape.employmentType.catch(TEACHER_DEFAULTS.employmentType).parse(t.employmentType),
        expiryDate: t.expiryDate ?? "",
        availability: teacherSchema.shape.availability.catch(TEACHER_DEFAULTS.availability).parse(t.availability),
        maxWeeklyHours: t.maxWeeklyHours,
        isActive: t.isActive,
        qualifications: t.qualifications ?? "",
      }
    : TEACHER_DEFAULTS;

/** Add Teacher / Edit Teacher (delivery.md §5 Teacher). */
export function TeacherFormModal({ opened, onClose, teacher }: { opened: boolean; onClose: () => void; teacher: Teacher | null }) {
  const save = useSaveTeacher();
  const { register, control, handleSubmit, reset, setError, formState, getValues } = useForm<TeacherFormValues, unknown, TeacherInput>({
    resolver: zodResolver(teacherSchema),
    defaultValues: toValues(teacher),
  });
  const employment = useWatch({ control, name: "employmentType" });
  const dialog = useRecordDialog(opened, teacher, reset, toValues, {
    getValues,
    fetchFresh: (t) => fetchTeacher(t.id),
    labels: { employeeId: "Employee ID", email: "Email", firstName: "First Name", lastName: "Last Name", phone: "Phone", jobTitle: "Job Title", employmentType: "Employment Type", expiryDate: "Contract Expiry Date", availability: "Availability", maxWeeklyHours: "Max Weekly Hours", qualifications: "Qualifications", isActive: "Active" },
    display: { employmentType: (v: unknown) => EMPLOYMENT_LABELS[String(v)] ?? showValue(v), availability: (v: unknown) => AVAILABILITY_LABELS[String(v)] ?? showValue(v) },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      await save.mutateAsync({ teacher: current, values });
      notifySuccess(current ? "Teacher updated successfully" : "Teacher created successfully");
      onClose();
    } catch (error) {
      const failure = classifyError(error);
      const title = current ? "Failed to update teacher" : "Failed to create teacher";
      if (failure.kind === "validation" || failure.kind === "duplicate") {
        const messages = applyFieldErrors(failure.fields, setError, FIELDS);
        setServerMessages(messages);
        notifyError(title, messages[0] ?? ("message" in failure ? String(failure.message) : "Please check your information."));
      } else if (failure.kind === "stale") {
        await dialog.onStale();
      } else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Teacher" : "Add Teacher"} size="xl">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Employee ID" withAsterisk {...register("employeeId")} error={formState.errors.employeeId?.message} />
            <TextInput label="Email" type="email" withAsterisk {...register("email")} error={formState.errors.email?.message} />
            <TextInput label="First Name" withAsterisk {...register("firstName")} error={formState.errors.firstName?.message} />
            <TextInput label="Last Name" withAsterisk {...register("lastName")} error={formState.errors.lastName?.message} />
            <TextInput label="Phone" maxLength={20} {...register("phone")} error={formState.errors.phone?.message} />
            <TextInput label="Job Title" maxLength={100} {...register("jobTitle")} error={formState.errors.jobTitle?.message} />
            <Controller
              control={control}
              name="employmentType"
              render={({ field }) => (
                <Select label="Employment Type" data={Object.entries(EMPLOYMENT_LABELS).map(([value, label]) => ({ value, label }))} value={field.value} onChange={(v) => field.onChange(v ?? "ongoing")} allowDeselect={false} />
              )}
            />
            <TextInput type="date" label="Contract Expiry Date" disabled={employment !== "fixed_term"} {...register("expiryDate")} error={formState.errors.expiryDate?.message} />
            <Controller
              control={control}
              name="availability"
              render={({ field }) => (
                <Select label="Availability" data={Object.entries(AVAILABILITY_LABELS).map(([value, label]) => ({ value, label }))} value={field.value} onChange={(v) => field.onChange(v ?? "day")} allowDeselect={false} />
              )}
            />
            <Controller
              control={control}
              name="maxWeeklyHours"
              render={({ field }) => (
                <NumberInput
                  clampBehavior="none"
                  label="Max Weekly Hours"
                  min={1}
                  max={40}
                  value={field.value as number | string}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={formState.errors.maxWeeklyHours?.message}
                />
              )}
            />
          </SimpleGrid>
          <Textarea label="Qualifications" autosize minRows={2} {...register("qualifications")} />
          <Controller control={control} name="isActive" render={({ field }) => <Switch label="Active" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />} />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Teacher" : "Add Teacher"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
