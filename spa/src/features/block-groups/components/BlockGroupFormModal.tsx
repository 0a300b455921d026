import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { StaleChanges } from "../../../components/StaleChanges";
import { showValue, useRecordDialog } from "../../../components/useRecordDialog";
import { Controller, useForm } from "react-hook-form";
import { applyFieldErrors, FormErrorList } from "../../../components/FormErrors";
import { classifyError, notifyError, notifySuccess } from "../../../components/Notify";
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
  type BlockGroupInput,
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
  };
}

/** Block group create and edit (delivery.md §2 "Block group form", §5). */
export function BlockGroupFormModal({ opened, onClose, group }: { opened: boolean; onClose: () => void; group?: BlockGroup | null }) {
  const courses = useCourseOptions();
  const campuses = useCampusOptions();
  const save = useSaveBlockGroup();
  const { register, handleSubmit, control, reset, setError, formState, getValues } = useForm<BlockGroupFormValues, unknown, BlockGroupInput>({
    resolver: zodResolver(blockGroupSchema),
    defaultValues: toValues(group),
  });
  const dialog = useRecordDialog(opened, group, reset, toValues, {
    getValues,
    fetchFresh: (g) => fetchBlockGroup(g.id),
    labels: { code: "Code", name: "Name", courseId: "Course", campusId: "Campus", deliveryMode: "Delivery Mode", studyMode: "Study Load", cohortSize: "Cohort Size", status: "Status", startDate: "Start Date", endDate: "End Date", preferredDays: "Preferred Days", sessionDuration: "Session Duration (hours)", sessionsPerDay: "Sessions Per Day" },
    display: {
      courseId: (v: unknown) => courses.data?.find((c) => c.id === v)?.code ?? showValue(v),
      campusId: (v: unknown) => campuses.data?.find((c) => c.id === v)?.name ?? showValue(v),
    },
  });
  const { current, serverMessages, setServerMessages, clearServerState, formRef } = dialog;

  const onSubmit = handleSubmit(async (values) => {
    clearServerState();
    try {
      await save.mutateAsync({ group: current, values });
      notifySuccess(current ? "Block group updated successfully" : "Block group created successfully");
      onClose();
    } catch (error) {
      const failure = classifyError(error);
      const title = current ? "Failed to update block group" : "Failed to create block group";
      if (failure.kind === "stale") {
        await dialog.onStale();
      } else if (failure.kind === "validation" || failure.kind === "duplicate") {
        const messages = applyFieldErrors(failure.fields, setError, FIELDS);
        setServerMessages(messages.length ? messages : ["message" in failure ? String(failure.message) : ""]);
        notifyError(title, messages[0] ?? ("message" in failure ? String(failure.message) : "Please check your information."));
      } else if (failure.kind === "unauthorized") notifyError(title, "Unauthorized: You are logged out. Logging in again...");
      else notifyError(title, ("message" in failure && failure.message) || "Please try again.");
    }
  });

  const selectField = (name: "courseId" | "campusId", label: string, data: { value: string; label: string }[]) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select label={label} data={data} value={field.value || null} onChange={(v) => field.onChange(v ?? "")} searchable clearable error={formState.errors[name]?.message} />
      )}
    />
  );
  const numberField = (name: "cohortSize" | "sessionDuration" | "sessionsPerDay", label: string, step = 1) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput
                clampBehavior="none" label={label} min={1} step={step} withAsterisk value={field.value as number | string} onChange={field.onChange} onBlur={field.onBlur} error={formState.errors[name]?.message} />
      )}
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={current ? "Edit Block Group" : "Create Block Group"} size="xl">
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Stack>
          <StaleChanges dialog={dialog} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Code" withAsterisk placeholder="e.g. ICT30120-2026-A" {...register("code")} error={formState.errors.code?.message} />
            <TextInput label="Name" withAsterisk {...register("name")} error={formState.errors.name?.message} />
            {selectField("courseId", "Course", (courses.data ?? []).map((c) => ({ value: c.id, label: `${c.code} - ${c.name}` })))}
            {selectField("campusId", "Campus", (campuses.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.abbreviation})` })))}
            <Controller
              control={control}
              name="deliveryMode"
              render={({ field }) => (
                <Select label="Delivery Mode" data={[{ value: "on_campus", label: "On Campus" }, { value: "remote", label: "Remote" }]} value={field.value} onChange={(v) => field.onChange(v ?? "on_campus")} allowDeselect={false} />
              )}
            />
            <Controller
              control={control}
              name="studyMode"
              render={({ field }) => (
                <Select label="Study Load" data={[{ value: "full_time", label: "Full Time" }, { value: "part_time", label: "Part Time" }]} value={field.value} onChange={(v) => field.onChange(v ?? "full_time")} allowDeselect={false} />
              )}
            />
            {numberField("cohortSize", "Cohort Size")}
            <Controller
              control={control}
              name="status"
              render={({ field }) => (
                <Select label="Status" data={STATUSES.map((s) => ({ value: s.value, label: s.label }))} value={field.value} onChange={(v) => field.onChange(v ?? "active")} allowDeselect={false} />
              )}
            />
            <TextInput type="date" label="Start Date" withAsterisk {...register("startDate")} error={formState.errors.startDate?.message} />
            <TextInput type="date" label="End Date" description="Optional; calculated when scheduled" {...register("endDate")} error={formState.errors.endDate?.message} />
            <TextInput label="Preferred Days" placeholder="e.g. Monday, Wednesday" {...register("preferredDays")} error={formState.errors.preferredDays?.message} />
            {numberField("sessionDuration", "Session Duration (hours)", 0.5)}
            {numberField("sessionsPerDay", "Sessions Per Day")}
          </SimpleGrid>
          <FormErrorList messages={serverMessages.filter(Boolean)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? "Update Block Group" : "Create Block Group"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
