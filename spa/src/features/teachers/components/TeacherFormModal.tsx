import { FormNumber, FormSelect, FormSwitch } from "../../../components/FormFields";
import { RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { SimpleGrid, TextInput, Textarea } from "@mantine/core";
import { showValue } from "../../../components/useRecordDialog";
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

const TEXT: DialogText = { create: ["Add Teacher", "Add Teacher"], edit: ["Edit Teacher", "Update Teacher"] };

/** Add Teacher / Edit Teacher (delivery.md §5 Teacher). */
export function TeacherFormModal({ opened, onClose, teacher }: { opened: boolean; onClose: () => void; teacher: Teacher | null }) {
  const save = useSaveTeacher();
  const record = useRecordForm({
    opened,
    record: teacher,
    schema: teacherSchema,
    toValues,
    fields: FIELDS,
    stale: {
      fetchFresh: (t) => fetchTeacher(t.id),
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
      display: {
        employmentType: (v: unknown) => EMPLOYMENT_LABELS[String(v)] ?? showValue(v),
        availability: (v: unknown) => AVAILABILITY_LABELS[String(v)] ?? showValue(v),
      },
    },
    save: (current, values) => save.mutateAsync({ teacher: current, values }),
    onClose,
    savedText: ["Teacher created successfully", "Teacher updated successfully"],
    failedTitle: ["Failed to create teacher", "Failed to update teacher"],
  });
  const { register, control, formState } = record.form;
  const current = record.current;
  const employment = useWatch({ control, name: "employmentType" });

  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!current} text={TEXT} size="xl" record={record} saving={save.isPending}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Employee ID" withAsterisk {...register("employeeId")} error={formState.errors.employeeId?.message} />
        <TextInput label="Email" type="email" withAsterisk {...register("email")} error={formState.errors.email?.message} />
        <TextInput label="First Name" withAsterisk {...register("firstName")} error={formState.errors.firstName?.message} />
        <TextInput label="Last Name" withAsterisk {...register("lastName")} error={formState.errors.lastName?.message} />
        <TextInput label="Phone" maxLength={20} {...register("phone")} error={formState.errors.phone?.message} />
        <TextInput label="Job Title" maxLength={100} {...register("jobTitle")} error={formState.errors.jobTitle?.message} />
        <FormSelect
          control={control}
          name="employmentType"
          label="Employment Type"
          data={Object.entries(EMPLOYMENT_LABELS).map(([value, label]) => ({ value, label }))}
          fallback="ongoing"
        />
        <TextInput
          type="date"
          label="Contract Expiry Date"
          disabled={employment !== "fixed_term"}
          {...register("expiryDate")}
          error={formState.errors.expiryDate?.message}
        />
        <FormSelect
          control={control}
          name="availability"
          label="Availability"
          data={Object.entries(AVAILABILITY_LABELS).map(([value, label]) => ({ value, label }))}
          fallback="day"
        />
        <FormNumber control={control} name="maxWeeklyHours" label="Max Weekly Hours" min={1} max={40} error={formState.errors.maxWeeklyHours?.message} />
      </SimpleGrid>
      <Textarea label="Qualifications" autosize minRows={2} {...register("qualifications")} />
      <FormSwitch control={control} name="isActive" label="Active" />
    </RecordFormDialog>
  );
}
