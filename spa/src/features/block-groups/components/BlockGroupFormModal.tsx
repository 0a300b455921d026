import { ROOM_TYPES } from "@/lib/entities/rooms";
import { choices, DateRangeFields, FormNumber, FormPicker, FormSelect } from "@/components/FormFields";
import { defineRecordForm, RecordFormDialog, standardFailure, useRecordForm, type RecordDialogProps } from "@/components/RecordFormDialog";
import { SimpleGrid, TextInput } from "@mantine/core";
import { showRecord } from "@/components/useRecordDialog";
import { notifyError } from "@/components/Notify";
import {
  BLOCK_GROUP_DEFAULTS,
  blockGroupSchema,
  daysText,
  DELIVERY_LABELS,
  fetchBlockGroup,
  STATUSES,
  STUDY_LABELS,
  useCampusOptions,
  useCourseOptions,
  useSaveBlockGroup,
  type BlockGroup,
  type BlockGroupFormValues,
} from "../api/blockGroups";

function toValues(group?: BlockGroup | null): BlockGroupFormValues {
  if (!group) return BLOCK_GROUP_DEFAULTS;
  return {
    code: group.code,
    name: group.name,
    courseId: group.courseId ?? "",
    campusId: group.campusId ?? "",
    deliveryMode: blockGroupSchema.shape.deliveryMode.catch(BLOCK_GROUP_DEFAULTS.deliveryMode).parse(group.deliveryMode),
    studyMode: blockGroupSchema.shape.studyMode.catch(BLOCK_GROUP_DEFAULTS.studyMode).parse(group.studyMode),
    cohortSize: group.cohortSize,
    startDate: group.startDate ?? "",
    endDate: group.endDate ?? "",
    preferredDays: group.preferredDaysText || daysText(group.preferredDays),
    sessionDuration: group.sessionDuration,
    sessionsPerDay: group.sessionsPerDay,
    status: blockGroupSchema.shape.status.catch(BLOCK_GROUP_DEFAULTS.status).parse(group.status),
    preferredRoomType: blockGroupSchema.shape.preferredRoomType.catch("").parse(group.preferredRoomType ?? ""),
  };
}

/** The block group dialog (docs/behaviour/block-groups.md §1). */
const BLOCK_GROUP_FORM = defineRecordForm({
  model: { schema: blockGroupSchema, toValues, fetch: fetchBlockGroup, toSave: (group, values) => ({ group, values }) },
  text: {
    create: { title: "Create Block Group", submit: "Create Block Group", saved: "Block group created successfully" },
    edit: { title: "Edit Block Group", submit: "Update Block Group", saved: "Block group updated successfully" },
  },
  onFailed: (failure, helpers) => {
    const title = helpers.editing ? "Failed to update block group" : "Failed to create block group";
    if (failure.kind === "unauthorized") notifyError(title, "Unauthorized: You are logged out. Logging in again...");
    else if (failure.kind === "duplicate" && !Object.keys(failure.fields).length) {
      // A 409 without a field error still shows its message in the dialog's list.
      helpers.setServerMessages([failure.message]);
      notifyError(title, failure.message);
    } else standardFailure(title)(failure, helpers);
  },
  labels: {
    code: "Code",
    name: "Name",
    courseId: "Course",
    campusId: "Campus",
    deliveryMode: "Delivery Mode",
    studyMode: "Study Load",
    cohortSize: "Cohort Size",
    status: "Status",
    startDate: "Start Date",
    endDate: "End Date",
    preferredDays: "Preferred Days",
    sessionDuration: "Session Duration (hours)",
    sessionsPerDay: "Sessions Per Day",
    preferredRoomType: "Preferred room type",
  },
});

/** Block group create and edit. */
export function BlockGroupFormModal({ group, ...dialog }: RecordDialogProps & { group?: BlockGroup | null }) {
  const courses = useCourseOptions();
  const campuses = useCampusOptions();
  const display = { courseId: showRecord(courses.data, (c) => c.code), campusId: showRecord(campuses.data, (c) => c.name) };
  const record = useRecordForm({ ...BLOCK_GROUP_FORM, ...dialog, record: group, save: useSaveBlockGroup(), display });
  const { register, control, formState } = record.form;
  const numberField = (name: "cohortSize" | "sessionDuration" | "sessionsPerDay", label: string, step = 1) => (
    <FormNumber control={control} name={name} label={label} min={1} step={step} withAsterisk error={formState.errors[name]?.message} />
  );

  return (
    <RecordFormDialog record={record} size="xl">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Code" withAsterisk placeholder="e.g. ICT30120-2026-A" {...register("code")} error={formState.errors.code?.message} />
        <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
        <FormPicker
          control={control}
          name="courseId"
          label="Course"
          data={(courses.data ?? []).map((c) => ({ value: c.id, label: `${c.code} - ${c.name}` }))}
          searchable
          clearable
          error={formState.errors.courseId?.message}
        />
        <FormPicker
          control={control}
          name="campusId"
          label="Campus"
          data={(campuses.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.abbreviation})` }))}
          searchable
          clearable
          error={formState.errors.campusId?.message}
        />
        <FormSelect control={control} name="deliveryMode" label="Delivery Mode" data={choices(DELIVERY_LABELS)} fallback="on_campus" />
        <FormSelect control={control} name="studyMode" label="Study Load" data={choices(STUDY_LABELS)} fallback="full_time" />
        {numberField("cohortSize", "Cohort Size")}
        <FormSelect control={control} name="status" label="Status" data={STATUSES.map((s) => ({ value: s.value, label: s.label }))} fallback="active" />
        <FormSelect
          control={control}
          name="preferredRoomType"
          label="Preferred room type"
          description="Scheduling picks free rooms of this type when no room is given"
          data={[{ value: "", label: "None" }, ...choices(ROOM_TYPES)]}
          fallback=""
        />
        <DateRangeFields form={record.form} optionalEnd="Optional; calculated when scheduled" />
        <TextInput label="Preferred Days" placeholder="e.g. Monday, Wednesday" {...register("preferredDays")} error={formState.errors.preferredDays?.message} />
        {numberField("sessionDuration", "Session Duration (hours)", 0.5)}
        {numberField("sessionsPerDay", "Sessions Per Day")}
      </SimpleGrid>
    </RecordFormDialog>
  );
}
