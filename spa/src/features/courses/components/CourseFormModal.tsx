import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Select, Stack, Switch, TextInput, Textarea } from "@mantine/core";
import { StaleChanges } from "../../../components/StaleChanges";
import { useRecordDialog } from "../../../components/useRecordDialog";
import { Controller, useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, isRawStatusMessage, notifyError, notifySuccess } from "../../../components/Notify";
import { COURSE_DEFAULTS, courseSchema, fetchCourse, LEVEL_LABELS, useSaveCourse, type Course, type CourseInput } from "../api/courses";

const FIELDS = ["code", "name", "level", "description", "isActive"] as const;

function toInput(course: Course | null | undefined): CourseInput {
  if (!course) return COURSE_DEFAULTS;
  return { code: course.code, name: course.name, level: courseSchema.shape.level.catch(COURSE_DEFAULTS.level).parse(course.level), description: course.description ?? "", isActive: course.isActive };
}

/** Create New Course / Edit Course dialog (delivery.md §2 Courses, §8 Courses). */
export function CourseFormModal({ opened, onClose, course }: { opened: boolean; onClose: () => void; course?: Course | null }) {
  const save = useSaveCourse();
  const form = useForm<CourseInput>({ resolver: zodResolver(courseSchema), defaultValues: toInput(course) });
  const { register, handleSubmit, control, reset, setError, formState, getValues } = form;

  const dialog = useRecordDialog(opened, course, reset, toInput, {
    getValues,
    fetchFresh: (c) => fetchCourse(c.id),
    labels: { code: "Code", name: "Name", level: "Level", description: "Description", isActive: "Active" },
    display: { level: (v: unknown) => LEVEL_LABELS[v as keyof typeof LEVEL_LABELS] ?? String(v) },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      await save.mutateAsync({ course: current, values });
      notifySuccess(current ? "Course updated successfully" : "Course created successfully");
      onClose();
    } catch (error) {
      const failure = classifyError(error);
      const verb = current ? "update" : "create";
      switch (failure.kind) {
        case "duplicate":
          notifyError("Course Code Already Exists", "This course code is already used in your organization. Please choose a different code.");
          setError("code", { type: "server", message: failure.fields.code ?? "This course code is already used in your organization." });
          break;
        case "validation":
          notifyError("Please Check Your Information", "Some fields have validation errors.");
          setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
          break;
        case "unauthorized":
          notifyError("Session Expired", "Please sign in again.");
          break;
        case "stale": {
        await dialog.onStale();
          break;
        }
        default: {
          const message = "message" in failure ? failure.message : "";
          notifyError(
            current ? "Course Update Failed" : "Course Creation Failed",
            !message || isRawStatusMessage(message) ? `Unable to ${verb} course. Please check your information and try again.` : message,
          );
        }
      }
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Course" : "Create New Course"} size="lg">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <TextInput label="Code" placeholder="e.g. ICT30120" withAsterisk {...register("code")} error={formState.errors.code?.message} />
          <TextInput label="Name" placeholder="e.g. Certificate III in Information Technology" withAsterisk {...register("name")} error={formState.errors.name?.message} />
          <Controller
            control={control}
            name="level"
            render={({ field }) => (
              <Select
                label="Level"
                data={Object.entries(LEVEL_LABELS).map(([value, label]) => ({ value, label }))}
                value={field.value}
                onChange={(v) => field.onChange(v ?? "certificate_iii")}
                allowDeselect={false}
                error={formState.errors.level?.message}
              />
            )}
          />
          <Textarea label="Description" autosize minRows={3} {...register("description")} error={formState.errors.description?.message} />
          <Controller
            control={control}
            name="isActive"
            render={({ field }) => (
              <Switch label="Active" description="Active courses are available for new enrollments and scheduling" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
            )}
          />
          <FormErrorList messages={serverMessages} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Course" : "Create Course"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
