import { FormSelect, FormSwitch } from "../../../components/FormFields";
import { RecordFormDialog, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { TextInput, Textarea } from "@mantine/core";
import { isRawStatusMessage, notifyError } from "../../../components/Notify";
import { COURSE_DEFAULTS, courseSchema, fetchCourse, LEVEL_LABELS, useSaveCourse, type Course, type CourseInput } from "../api/courses";

const FIELDS = ["code", "name", "level", "description", "isActive"] as const;

function toInput(course: Course | null | undefined): CourseInput {
  if (!course) return COURSE_DEFAULTS;
  return {
    code: course.code,
    name: course.name,
    level: courseSchema.shape.level.catch(COURSE_DEFAULTS.level).parse(course.level),
    description: course.description ?? "",
    isActive: course.isActive,
  };
}

const TEXT: DialogText = { create: ["Create New Course", "Create Course"], edit: ["Edit Course", "Update Course"] };

/** Create New Course / Edit Course dialog (delivery.md §2 Courses, §8 Courses). */
export function CourseFormModal({ opened, onClose, course }: { opened: boolean; onClose: () => void; course?: Course | null }) {
  const save = useSaveCourse();
  const record = useRecordForm({
    opened,
    record: course,
    schema: courseSchema,
    toValues: toInput,
    fields: FIELDS,
    stale: {
      fetchFresh: (c) => fetchCourse(c.id),
      labels: { code: "Code", name: "Name", level: "Level", description: "Description", isActive: "Active" },
      display: { level: (v: unknown) => LEVEL_LABELS[v as keyof typeof LEVEL_LABELS] ?? String(v) },
    },
    save: (current, values) => save.mutateAsync({ course: current, values }),
    onClose,
    savedText: ["Course created successfully", "Course updated successfully"],
    onFailed: (failure, { applyFields, setServerMessages, setFieldError, editing }) => {
      switch (failure.kind) {
        case "duplicate":
          notifyError("Course Code Already Exists", "This course code is already used in your organization. Please choose a different code.");
          setFieldError("code", failure.fields.code ?? "This course code is already used in your organization.");
          break;
        case "validation":
          notifyError("Please Check Your Information", "Some fields have validation errors.");
          setServerMessages(applyFields(failure));
          break;
        case "unauthorized":
          notifyError("Session Expired", "Please sign in again.");
          break;
        default: {
          const message = "message" in failure ? failure.message : "";
          notifyError(
            editing ? "Course Update Failed" : "Course Creation Failed",
            !message || isRawStatusMessage(message)
              ? `Unable to ${editing ? "update" : "create"} course. Please check your information and try again.`
              : message,
          );
        }
      }
    },
  });
  const { register, control, formState } = record.form;
  const current = record.current;

  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!current} text={TEXT} size="lg" record={record} saving={save.isPending}>
      <TextInput label="Code" placeholder="e.g. ICT30120" withAsterisk {...register("code")} error={formState.errors.code?.message} />
      <TextInput
        label="Name"
        placeholder="e.g. Certificate III in Information Technology"
        withAsterisk
        {...register("name")}
        error={formState.errors.name?.message}
      />
      <FormSelect
        control={control}
        name="level"
        label="Level"
        data={Object.entries(LEVEL_LABELS).map(([value, label]) => ({ value, label }))}
        fallback="certificate_iii"
        error={formState.errors.level?.message}
      />
      <Textarea label="Description" autosize minRows={3} {...register("description")} error={formState.errors.description?.message} />
      <FormSwitch control={control} name="isActive" label="Active" description="Active courses are available for new enrollments and scheduling" />
    </RecordFormDialog>
  );
}
