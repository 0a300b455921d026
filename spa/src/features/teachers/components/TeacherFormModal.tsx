import { choices, FormNumber, FormSelect, FormSwitch } from "@/components/FormFields";
import { defineRecordForm, RecordFormDialog, useRecordForm, type RecordDialogProps } from "@/components/RecordFormDialog";
import { SimpleGrid, TextInput, Textarea } from "@mantine/core";
import { showLabel } from "@/components/useRecordDialog";
import { useWatch } from "react-hook-form";
import {
  AVAILABILITY_LABELS,
  EMPLOYMENT_LABELS,
  fetchTeacher,
  TEACHER_DEFAULTS,
  teacherSchema,
  useSaveTeacher,
  type Teacher,
  type TeacherFormValues,
} from "../api/teachers";

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

/** The teacher dialog (docs/behaviour/teachers.md §1). */
const TEACHER_FORM = defineRecordForm({
  model: { schema: teacherSchema, toValues, fetch: fetchTeacher, toSave: (teacher, values) => ({ teacher, values }) },
  text: {
    create: { title: "Add Teacher", submit: "Add Teacher", saved: "Teacher created successfully", failed: "Failed to create teacher" },
    edit: { title: "Edit Teacher", submit: "Update Teacher", saved: "Teacher updated successfully", failed: "Failed to update teacher" },
  },
  labels: {
    employeeId: "Employee ID",
    email: "Email",
    firstName: "First Name",
    lastName: "Last Name",
    phone: "Phone",
    jobTitle: "Job Title",
    employmentType: "Employment Type",
    expiryDate: "Contract Expiry Date",
    availability: "Availability",
    maxWeeklyHours: "Max Weekly Hours",
    qualifications: "Qualifications",
    isActive: "Active",
  },
  display: { employmentType: showLabel(EMPLOYMENT_LABELS), availability: showLabel(AVAILABILITY_LABELS) },
});

/** Add Teacher / Edit Teacher. */
export function TeacherFormModal({ teacher, ...dialog }: RecordDialogProps & { teacher: Teacher | null }) {
  const record = useRecordForm({ ...TEACHER_FORM, ...dialog, record: teacher, save: useSaveTeacher() });
  const { register, control, formState } = record.form;
  const employment = useWatch({ control, name: "employmentType" });

  return (
    <RecordFormDialog record={record} size="xl">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Employee ID" withAsterisk {...register("employeeId")} error={formState.errors.employeeId?.message} />
        <TextInput label="Email" type="email" withAsterisk {...register("email")} error={formState.errors.email?.message} />
        <TextInput label="First Name" withAsterisk {...register("firstName")} error={formState.errors.firstName?.message} />
        <TextInput label="Last Name" withAsterisk {...register("lastName")} error={formState.errors.lastName?.message} />
        <TextInput label="Phone" maxLength={20} {...register("phone")} error={formState.errors.phone?.message} />
        <TextInput label="Job Title" maxLength={100} {...register("jobTitle")} error={formState.errors.jobTitle?.message} />
        <FormSelect control={control} name="employmentType" label="Employment Type" data={choices(EMPLOYMENT_LABELS)} fallback="ongoing" />
        <TextInput
          type="date"
          label="Contract Expiry Date"
          disabled={employment !== "fixed_term"}
          {...register("expiryDate")}
          error={formState.errors.expiryDate?.message}
        />
        <FormSelect control={control} name="availability" label="Availability" data={choices(AVAILABILITY_LABELS)} fallback="day" />
        <FormNumber control={control} name="maxWeeklyHours" label="Max Weekly Hours" min={1} max={40} error={formState.errors.maxWeeklyHours?.message} />
      </SimpleGrid>
      <Textarea label="Qualifications" autosize minRows={2} {...register("qualifications")} />
      <FormSwitch control={control} name="isActive" label="Active" />
    </RecordFormDialog>
  );
}
