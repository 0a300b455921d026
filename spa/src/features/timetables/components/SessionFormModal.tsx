import { ConflictAlert } from "../../../components/ConflictAlert";
import { FormNumber, FormSelect } from "../../../components/FormFields";
import { RecordFormDialog, standardFailure, useRecordForm, type DialogText } from "../../../components/RecordFormDialog";
import { Autocomplete, Select, SimpleGrid, TextInput, Textarea } from "@mantine/core";
import { ROOM_TYPES, useRoomAvailability, useRooms } from "../../rooms/api";
import { useWatch } from "react-hook-form";
import { HistoryPanel } from "../../history/HistoryPanel";
import { useEffect, useState } from "react";
import { Controller } from "react-hook-form";
import { notifyError, notifyWarning, type ConflictItem } from "../../../components/Notify";
import { showValue } from "../../../components/useRecordDialog";
import {
  DAY_LABELS,
  fetchSession,
  sessionSchema,
  STATUS_LABELS,
  useBlockGroupChoices,
  useSaveSession,
  useTeacherChoices,
  useUnitChoices,
  type Session,
  type SessionFormValues,
} from "../api/timetables";

const FIELDS = ["blockGroupId", "unitId", "teacherId", "weekNumber", "dayOfWeek", "startTime", "endTime", "room", "actualHours", "status", "notes"];

function toValues(s: Session | null, blockGroupId: string | null): SessionFormValues {
  return {
    blockGroupId: s?.blockGroupId ?? blockGroupId ?? "",
    unitId: s?.unitId ?? "",
    teacherId: s?.teacherId ?? "unassigned",
    yearLevel: 1,
    weekNumber: s?.weekNumber ?? 1,
    dayOfWeek: s?.dayOfWeek ?? 1,
    startTime: s?.startTime ?? "09:00:00",
    endTime: s?.endTime ?? "12:00:00",
    room: s?.room ?? "",
    actualHours: s?.actualHours || 3,
    status: sessionSchema.shape.status.catch("scheduled").parse(s?.status),
    notes: s?.notes ?? "",
  };
}

const TEXT: DialogText = { create: ["Add Timetable Entry", "Add Entry"], edit: ["Edit Timetable Entry", "Update Entry"] };

/** Add / edit a timetable session (delivery.md §5 "Timetable session"; 409 conflicts; 412 stale). */
export function SessionFormModal({
  opened,
  onClose,
  session,
  defaultBlockGroupId,
}: {
  opened: boolean;
  onClose: () => void;
  session: Session | null;
  defaultBlockGroupId: string | null;
}) {
  const [conflicts, setConflicts] = useState<ConflictItem[]>([]);
  const groups = useBlockGroupChoices();
  const teachers = useTeacherChoices();
  const units = useUnitChoices();
  const rooms = useRooms();
  const save = useSaveSession();
  const teacherName = (v: unknown) => {
    const t = teachers.data?.find((x) => x.id === v);
    return t ? `${t.firstName} ${t.lastName}` : "Unassigned";
  };
  // The record loads when the dialog opens (or another record is opened), not when a live update
  // refreshes it: the user keeps editing the version they opened (the 412 browser test's old race).
  const record = useRecordForm({
    opened,
    record: session,
    schema: sessionSchema,
    toValues: (s) => toValues(s ?? null, defaultBlockGroupId),
    fields: FIELDS,
    stale: {
      fetchFresh: (s) => fetchSession(s.id),
      labels: {
        blockGroupId: "Block Group",
        unitId: "Unit",
        teacherId: "Teacher",
        weekNumber: "Week Number",
        dayOfWeek: "Day of Week",
        startTime: "Start Time",
        endTime: "End Time",
        actualHours: "Actual Hours",
        room: "Room",
        status: "Status",
        notes: "Notes",
      },
      display: {
        blockGroupId: (v: unknown) => groups.data?.find((g) => g.id === v)?.code ?? showValue(v),
        unitId: (v: unknown) => units.data?.find((u) => u.id === v)?.code ?? showValue(v),
        teacherId: teacherName,
        dayOfWeek: (v: unknown) => DAY_LABELS[Number(v)] ?? showValue(v),
        status: (v: unknown) => STATUS_LABELS[String(v) as keyof typeof STATUS_LABELS] ?? showValue(v),
      },
    },
    save: (current, values) => save.mutateAsync({ session: current, values }),
    onSubmitting: () => setConflicts([]),
    onClose,
    savedText: ["Timetable entry created successfully", "Timetable entry updated successfully"],
    onSaved: (saved) => {
      if (saved?.warnings?.length) notifyWarning("Saved with warnings", saved.warnings.map((w) => w.message).join(" "));
    },
    onFailed: (failure, helpers) => {
      const title = helpers.editing ? "Failed to update timetable entry" : "Failed to create timetable entry";
      if (failure.kind === "conflict") {
        setConflicts(failure.conflicts);
        notifyError(title, failure.message);
      } else standardFailure(title)(failure, helpers);
    },
  });
  const { control, register, formState } = record.form;
  const current = record.current;
  // Free or booked at this session's time (issue 19): known for a session whose date is not being moved.
  const [startTime, endTime, weekNumber, dayOfWeek] = useWatch({ control, name: ["startTime", "endTime", "weekNumber", "dayOfWeek"] });
  const sameDate = current && Number(weekNumber) === current.weekNumber && Number(dayOfWeek) === current.dayOfWeek;
  const availability = useRoomAvailability(sameDate ? current.actualDate : null, String(startTime ?? ""), String(endTime ?? ""), current?.id);
  const roomState = new Map((availability.data ?? []).map((a) => [a.code, a]));
  // biome-ignore lint/correctness/useExhaustiveDependencies: clear the conflicts when the dialog opens or edits another session
  useEffect(() => {
    if (opened) setConflicts([]);
  }, [opened, session?.id]);

  const select = (name: "blockGroupId" | "unitId" | "teacherId", label: string, data: { value: string; label: string }[], required = true) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          withAsterisk={required}
          searchable
          data={data}
          value={field.value || null}
          onChange={(v) => field.onChange(v ?? "")}
          error={formState.errors[name]?.message}
          allowDeselect={false}
        />
      )}
    />
  );

  return (
    <RecordFormDialog
      opened={opened}
      onClose={onClose}
      editing={!!current}
      text={TEXT}
      size="xl"
      record={record}
      saving={save.isPending}
      after={
        current ? (
          <div style={{ marginTop: "var(--mantine-spacing-lg)" }}>
            <HistoryPanel id={current.id} />
          </div>
        ) : null
      }
    >
      <ConflictAlert title="This change clashes with another session" conflicts={conflicts} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {select(
          "blockGroupId",
          "Block Group",
          (groups.data ?? []).map((g) => ({ value: g.id, label: `${g.code} - ${g.name}` })),
        )}
        {select(
          "unitId",
          "Unit",
          (units.data ?? []).map((u) => ({ value: u.id, label: `${u.code} - ${u.name}` })),
        )}
        {select(
          "teacherId",
          "Teacher",
          [
            { value: "unassigned", label: "Unassigned" },
            ...(teachers.data ?? [])
              .filter((t) => t.isActive !== false || t.id === current?.teacherId)
              .map((t) => ({ value: t.id, label: `${t.firstName} ${t.lastName}` })),
          ],
          false,
        )}
        <Controller
          control={control}
          name="yearLevel"
          render={({ field }) => (
            <Select
              label="Year Level"
              data={["1", "2", "3", "4"]}
              value={String(field.value)}
              onChange={(v) => field.onChange(Number(v ?? 1))}
              allowDeselect={false}
            />
          )}
        />
        <FormNumber control={control} name="weekNumber" label="Week Number" min={1} error={formState.errors.weekNumber?.message} />
        <Controller
          control={control}
          name="dayOfWeek"
          render={({ field }) => (
            <Select
              label="Day of Week"
              data={DAY_LABELS.slice(1).map((d, i) => ({ value: String(i + 1), label: d }))}
              value={String(field.value)}
              onChange={(v) => field.onChange(Number(v ?? 1))}
              allowDeselect={false}
            />
          )}
        />
        <TextInput label="Start Time" placeholder="09:00:00" maxLength={8} {...register("startTime")} error={formState.errors.startTime?.message} />
        <TextInput label="End Time" placeholder="12:00:00" maxLength={8} {...register("endTime")} error={formState.errors.endTime?.message} />
        <FormNumber
          control={control}
          name="actualHours"
          label="Actual Hours"
          min={0.5}
          max={12}
          step={0.5}
          decimalScale={2}
          error={formState.errors.actualHours?.message}
        />
        <Controller
          control={control}
          name="room"
          render={({ field }) => (
            // The recorded rooms, or any text for a room not recorded yet (the server links a text
            // that matches a room's code, case and spacing ignored; issue 19).
            <Autocomplete
              label="Room"
              maxLength={50}
              data={(rooms.data ?? []).filter((r) => r.isActive).map((r) => r.code)}
              renderOption={({ option }) => {
                const r = rooms.data?.find((x) => x.code === option.value);
                const state = roomState.get(option.value);
                return (
                  <span>
                    {option.value}
                    {r ? ` · ${r.name || ROOM_TYPES[r.type]}${r.capacity ? ` · ${r.capacity} seats` : ""}` : ""}
                    {state ? (state.free ? " · free" : ` · booked: ${state.bookedBy}`) : ""}
                  </span>
                );
              }}
              value={field.value ?? ""}
              onChange={field.onChange}
              error={formState.errors.room?.message}
            />
          )}
        />
        <FormSelect
          control={control}
          name="status"
          label="Status"
          data={Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }))}
          fallback="scheduled"
        />
      </SimpleGrid>
      <Textarea label="Notes" autosize minRows={2} {...register("notes")} />
    </RecordFormDialog>
  );
}
