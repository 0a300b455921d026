import { choices, FormSelect, FormSwitch } from "@/components/FormFields";
import { defineRecordForm, RecordFormModal, type RecordDialogProps } from "@/components/RecordFormDialog";
import { showLabel } from "@/components/useRecordDialog";
import { TextInput, Textarea } from "@mantine/core";
import { isRawStatusMessage, notifyError } from "@/components/Notify";
import { COURSE_DEFAULTS, courseSchema, fetchCourse, LEVEL_LABELS, useSaveCourse, type Course, type CourseInput } from "../api/courses";

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

/** The course dialog (docs/behaviour/units-and-courses.md §1; docs/behaviour/errors.md §9). */
const COURSE_FORM = defineRecordForm({
  model: { schema: courseSchema, toValues: toInput, fetch: fetchCourse, toSave: (course, values) => ({ course, values }) },
  text: {
    create: { title: "Create New Course", submit: "Create Course", saved: "Course created successfully" },
    edit: { title: "Edit Course", submit: "Update Course", saved: "Course updated successfully" },
  },
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
          !message || isRawStatusMessage(message) ? `Unable to ${editing ? "update" : "create"} course. Please check your information and try again.` : message,
        );
      }
    }
  },
  labels: { code: "Code", name: "Name", level: "Level", description: "Description", isActive: "Active" },
  display: { level: showLabel(LEVEL_LABELS) },
});

/** Create New Course / Edit Course dialog. */
export function CourseFormModal({ course, ...dialog }: RecordDialogProps & { course?: Course | null }) {
  return (
    <RecordFormModal spec={COURSE_FORM} {...dialog} record={course} save={useSaveCourse()}>
      {({ register, control, formState }) => (
        <>
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
            data={choices(LEVEL_LABELS)}
            fallback="certificate_iii"
            error={formState.errors.level?.message}
          />
          <Textarea label="Description" autosize minRows={3} {...register("description")} error={formState.errors.description?.message} />
          <FormSwitch control={control} name="isActive" label="Active" description="Active courses are available for new enrollments and scheduling" />
        </>
      )}
    </RecordFormModal>
  );
}
