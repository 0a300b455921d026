import { ConflictAlert } from "@/components/ConflictAlert";
import { choices, FormAutocomplete, FormNumber, FormPicker, FormSelect } from "@/components/FormFields";
import { defineRecordForm, RecordFormDialog, standardFailure, useRecordForm, type RecordDialogProps } from "@/components/RecordFormDialog";
import { SimpleGrid, TextInput, Textarea } from "@mantine/core";
import { useRooms } from "@/lib/entities/rooms";
import { roomPickerGroups, useRoomAvailability } from "../api/roomChoices";
import { useWatch } from "react-hook-form";
import { HistoryPanel } from "@/components/history/HistoryPanel";
import { useEffect, useState } from "react";
import { notifyError, notifyWarning, type ConflictItem } from "@/components/Notify";
import { showLabel, showRecord, showValue } from "@/components/useRecordDialog";
import { asWireTime, shownTime } from "@/lib/times";
import {
  DAY_LABELS,
  fetchSession,
  sessionSchema,
  STATUS_LABELS,
  useBlockGroupChoices,
  useSaveSession,
  useTeacherChoices,
  useUnitChoices,
  type SavedSession,
  type Session,
  type SessionFormValues,
} from "../api/timetables";

/** YYYY-MM-DD of week `week`, day `day` (1 = Monday) counted from the Monday of `start`'s week, or null. */
export function sessionDate(start: string | null | undefined, week: number, day: number): string | null {
  if (!start || !(week >= 1) || !(day >= 1 && day <= 7)) return null;
  const d = new Date(`${start}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return null;
  const monday = d.getUTCDate() - ((d.getUTCDay() + 6) % 7);
  d.setUTCDate(monday + 7 * (week - 1) + (day - 1));
  return d.toISOString().slice(0, 10);
}

/** The form's values for a session, or for a new one in `blockGroupId`. */
function toValues(s: Session | null | undefined, blockGroupId: string | null = null): SessionFormValues {
  return {
    blockGroupId: s?.blockGroupId ?? blockGroupId ?? "",
    unitId: s?.unitId ?? "",
    teacherId: s?.teacherId ?? "unassigned",
    yearLevel: 1,
    weekNumber: s?.weekNumber ?? 1,
    dayOfWeek: s?.dayOfWeek ?? 1,
    startTime: s?.startTime ? shownTime(s.startTime) : "09:00",
    endTime: s?.endTime ? shownTime(s.endTime) : "12:00",
    room: s?.room ?? "",
    actualHours: s?.actualHours || 3,
    status: sessionSchema.shape.status.catch("scheduled").parse(s?.status),
    notes: s?.notes ?? "",
  };
}

/** The timetable session dialog (docs/behaviour/hours.md §4 "Timetable session"; 409 conflicts; 412 stale). */
const SESSION_FORM = defineRecordForm({
  model: { schema: sessionSchema, toValues, fetch: fetchSession, toSave: (session, values) => ({ session, values }) },
  text: {
    create: { title: "Add Timetable Entry", submit: "Add Entry", saved: "Timetable entry created successfully" },
    edit: { title: "Edit Timetable Entry", submit: "Update Entry", saved: "Timetable entry updated successfully" },
  },
  onSaved: (saved: SavedSession) => {
    if (saved?.warnings?.length) notifyWarning("Saved with warnings", saved.warnings.map((w) => w.message).join(" "));
  },
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
});

/** Add / edit a timetable session; a new one is in the page's block group (`defaultBlockGroupId`). */
export function SessionFormModal({
  session,
  defaultBlockGroupId,
  ...dialog
}: RecordDialogProps & { session: Session | null; defaultBlockGroupId: string | null }) {
  const [conflicts, setConflicts] = useState<ConflictItem[]>([]);
  const groups = useBlockGroupChoices();
  const teachers = useTeacherChoices();
  const units = useUnitChoices();
  const rooms = useRooms();
  const teacherName = (v: unknown) => {
    const t = teachers.data?.find((x) => x.id === v);
    return t ? `${t.firstName} ${t.lastName}` : "Unassigned";
  };
  // The record loads when the dialog opens (or another record is opened), not when a live update
  // refreshes it: the user keeps editing the version they opened (the 412 browser test's old race).
  const record = useRecordForm({
    ...SESSION_FORM,
    ...dialog,
    record: session,
    model: { ...SESSION_FORM.model, toValues: (s) => toValues(s, defaultBlockGroupId) },
    save: useSaveSession(),
    display: {
      blockGroupId: showRecord(groups.data, (g) => g.code),
      unitId: showRecord(units.data, (u) => u.code),
      teacherId: teacherName,
      dayOfWeek: (v: unknown) => DAY_LABELS[Number(v)] ?? showValue(v),
      status: showLabel(STATUS_LABELS),
    },
    onSubmitting: () => setConflicts([]),
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
  // Free or booked at this session's time (ADR 0019): known for a session whose date is not being moved.
  const [startTime, endTime, weekNumber, dayOfWeek, blockGroupId] = useWatch({
    control,
    name: ["startTime", "endTime", "weekNumber", "dayOfWeek", "blockGroupId"],
  });
  const group = groups.data?.find((g) => g.id === blockGroupId);
  const sameDate = current && Number(weekNumber) === current.weekNumber && Number(dayOfWeek) === current.dayOfWeek && current.blockGroupId === blockGroupId;
  // The date the server will give it (its group's first week's Monday + week and day, as the server
  // places a new session): free/busy in Add Session too (ADR 0018).
  const date = sameDate ? current.actualDate : sessionDate(group?.startDate, Number(weekNumber), Number(dayOfWeek));
  const availability = useRoomAvailability(date, asWireTime(startTime), asWireTime(endTime), current?.id);
  const roomState = new Map((availability.data ?? []).map((a) => [a.roomId, a]));
  const roomGroups = roomPickerGroups(rooms.data ?? [], roomState, group?.campusId, (r) => r.code);
  const roomByCode = new Map(roomGroups.flatMap((g) => g.items.map((o) => [o.value, o] as const)));
  // biome-ignore lint/correctness/useExhaustiveDependencies: clear the conflicts when the dialog opens or edits another session
  useEffect(() => {
    if (dialog.opened) setConflicts([]);
  }, [dialog.opened, session?.id]);

  const select = (name: "blockGroupId" | "unitId" | "teacherId", label: string, data: { value: string; label: string }[], required = true) => (
    <FormPicker
      control={control}
      name={name}
      label={label}
      withAsterisk={required}
      searchable
      data={data}
      error={formState.errors[name]?.message}
      allowDeselect={false}
    />
  );

  return (
    <RecordFormDialog
      record={record}
      size="xl"
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
        <FormSelect control={control} name="yearLevel" label="Year Level" data={["1", "2", "3", "4"]} fallback="1" numeric />
        <FormNumber control={control} name="weekNumber" label="Week Number" min={1} error={formState.errors.weekNumber?.message} />
        <FormSelect
          control={control}
          name="dayOfWeek"
          label="Day of Week"
          data={DAY_LABELS.slice(1).map((d, i) => ({ value: String(i + 1), label: d }))}
          fallback="1"
          numeric
        />
        <TextInput label="Start Time" placeholder="09:00" maxLength={8} {...register("startTime")} error={formState.errors.startTime?.message} />
        <TextInput label="End Time" placeholder="12:00" maxLength={8} {...register("endTime")} error={formState.errors.endTime?.message} />
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
        {/* The recorded rooms, or any text for a room not recorded yet (the server links a text that matches
            a room's code, case and spacing ignored; ADR 0019). */}
        <FormAutocomplete
          control={control}
          name="room"
          label="Room"
          maxLength={50}
          data={roomGroups.map(({ group, items }) => ({ group, items: items.map(({ value, disabled }) => ({ value, disabled })) }))}
          renderOption={({ option }) => <span>{roomByCode.get(option.value)?.label ?? option.value}</span>}
          error={formState.errors.room?.message}
        />
        <FormSelect control={control} name="status" label="Status" data={choices(STATUS_LABELS)} fallback="scheduled" />
      </SimpleGrid>
      <Textarea label="Notes" autosize minRows={2} {...register("notes")} />
    </RecordFormDialog>
  );
}
