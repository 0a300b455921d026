import { ROOM_TYPES } from "../../rooms/api";
import { FormSelect } from "../../../components/FormFields";
import { RecordFormDialog, standardFailure, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { NumberInput, Select, SimpleGrid, TextInput } from "@mantine/core";
import { showValue } from "../../../components/useRecordDialog";
import { Controller } from "react-hook-form";
import { notifyError } from "../../../components/Notify";
import {
  BLOCK_GROUP_DEFAULTS,
  blockGroupSchema,
  daysText,
  fetchBlockGroup,
  STATUSES,
  useCampusOptions,
  useCourseOptions,
  useSaveBlockGroup,
  type BlockGroup,
  type BlockGroupFormValues,
} from "../api/blockGroups";

const FIELDS = Object.keys(BLOCK_GROUP_DEFAULTS);

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

const TEXT: DialogText = { create: ["Create Block Group", "Create Block Group"], edit: ["Edit Block Group", "Update Block Group"] };

/** Block group create and edit (delivery.md §2 "Block group form", §5). */
export function BlockGroupFormModal({ opened, onClose, group }: { opened: boolean; onClose: () => void; group?: BlockGroup | null }) {
  const courses = useCourseOptions();
  const campuses = useCampusOptions();
  const save = useSaveBlockGroup();
  const record = useRecordForm({
    opened,
    record: group,
    schema: blockGroupSchema,
    toValues,
    fields: FIELDS,
    stale: {
      fetchFresh: (g) => fetchBlockGroup(g.id),
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
      display: {
        courseId: (v: unknown) => courses.data?.find((c) => c.id === v)?.code ?? showValue(v),
        campusId: (v: unknown) => campuses.data?.find((c) => c.id === v)?.name ?? showValue(v),
      },
    },
    save: (current, values) => save.mutateAsync({ group: current, values }),
    onClose,
    savedText: ["Block group created successfully", "Block group updated successfully"],
    onFailed: (failure, helpers) => {
      const title = helpers.editing ? "Failed to update block group" : "Failed to create block group";
      if (failure.kind === "unauthorized") notifyError(title, "Unauthorized: You are logged out. Logging in again...");
      else if (failure.kind === "duplicate" && !Object.keys(failure.fields).length) {
        // A 409 without a field error still shows its message in the dialog's list.
        helpers.setServerMessages([failure.message]);
        notifyError(title, failure.message);
      } else standardFailure(title)(failure, helpers);
    },
  });
  const { register, control, formState } = record.form;
  const current = record.current;

  const selectField = (name: "courseId" | "campusId", label: string, data: { value: string; label: string }[]) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          data={data}
          value={field.value || null}
          onChange={(v) => field.onChange(v ?? "")}
          searchable
          clearable
          error={formState.errors[name]?.message}
        />
      )}
    />
  );
  const numberField = (name: "cohortSize" | "sessionDuration" | "sessionsPerDay", label: string, step = 1) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput
          clampBehavior="none"
          label={label}
          min={1}
          step={step}
          withAsterisk
          value={field.value as number | string}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={formState.errors[name]?.message}
        />
      )}
    />
  );

  return (
    <RecordFormDialog opened={opened} onClose={onClose} editing={!!current} text={TEXT} size="xl" record={record} saving={save.isPending}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Code" withAsterisk placeholder="e.g. ICT30120-2026-A" {...register("code")} error={formState.errors.code?.message} />
        <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
        {selectField(
          "courseId",
          "Course",
          (courses.data ?? []).map((c) => ({ value: c.id, label: `${c.code} - ${c.name}` })),
        )}
        {selectField(
          "campusId",
          "Campus",
          (campuses.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.abbreviation})` })),
        )}
        <FormSelect
          control={control}
          name="deliveryMode"
          label="Delivery Mode"
          data={[
            { value: "on_campus", label: "On Campus" },
            { value: "remote", label: "Remote" },
          ]}
          fallback="on_campus"
        />
        <FormSelect
          control={control}
          name="studyMode"
          label="Study Load"
          data={[
            { value: "full_time", label: "Full Time" },
            { value: "part_time", label: "Part Time" },
          ]}
          fallback="full_time"
        />
        {numberField("cohortSize", "Cohort Size")}
        <FormSelect control={control} name="status" label="Status" data={STATUSES.map((s) => ({ value: s.value, label: s.label }))} fallback="active" />
        <FormSelect
          control={control}
          name="preferredRoomType"
          label="Preferred room type"
          description="Scheduling picks free rooms of this type when no room is given"
          data={[{ value: "", label: "None" }, ...Object.entries(ROOM_TYPES).map(([value, label]) => ({ value, label }))]}
          fallback=""
        />
        <TextInput type="date" label="Start Date" withAsterisk {...register("startDate")} error={formState.errors.startDate?.message} />
        <TextInput
          type="date"
          label="End Date"
          description="Optional; calculated when scheduled"
          {...register("endDate")}
          error={formState.errors.endDate?.message}
        />
        <TextInput label="Preferred Days" placeholder="e.g. Monday, Wednesday" {...register("preferredDays")} error={formState.errors.preferredDays?.message} />
        {numberField("sessionDuration", "Session Duration (hours)", 0.5)}
        {numberField("sessionsPerDay", "Sessions Per Day")}
      </SimpleGrid>
    </RecordFormDialog>
  );
}
