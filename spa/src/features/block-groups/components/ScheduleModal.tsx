import { zodResolver } from "@hookform/resolvers/zod";
import { ActionIcon, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { Notice } from "@/components/Notice";
import { LabelledFigure } from "@/components/DetailPage";
import { Tag } from "@/components/Tag";
import { confirmAndMutate } from "@/components/ListPage";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useEffect } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { choices, FormPicker, FormSwitch } from "@/components/FormFields";
import { formatDate, hours } from "@/components/Dates";
import { classifyError, notifyError, notifySuccess } from "@/components/Notify";
import { daysText, type BlockGroup } from "../api/blockGroups";
import { ROOM_TYPES } from "@/lib/entities/rooms";
import {
  defaultTemplates,
  NEXT_TEMPLATE,
  scheduleSchema,
  templateHours,
  useClearSchedule,
  useGenerateSchedule,
  useSchedulingInfo,
  type ScheduleFormValues,
  type ScheduleInput,
} from "../api/scheduling";

export const canSchedule = (status: string) => status === "planned" || status === "active";
export const cannotScheduleMessage = (status: string) => `Cannot schedule ${status} block groups. Only Planned and Active block groups can be scheduled.`;

/** Schedule Block Group dialog (docs/behaviour/generation.md). */
export function ScheduleModal({ group, onClose }: { group: BlockGroup | null; onClose: () => void }) {
  const id = group?.id ?? "";
  const info = useSchedulingInfo(id, !!group);
  const generate = useGenerateSchedule(id);
  const clear = useClearSchedule(id);
  const { control, register, handleSubmit, reset, setValue, trigger, formState } = useForm<ScheduleFormValues, unknown, ScheduleInput>({
    resolver: zodResolver(scheduleSchema),
    defaultValues: { sessionTemplates: defaultTemplates(group?.sessionsPerDay), startDate: "", room: "", notes: "", startNextUnitInNewWeek: false },
  });
  const templates = useFieldArray({ control, name: "sessionTemplates" });
  const roomText = useWatch({ control, name: "room" });
  const watched = useWatch({ control, name: "sessionTemplates" });

  useEffect(() => {
    if (group)
      reset({ sessionTemplates: defaultTemplates(group.sessionsPerDay), startDate: group.startDate ?? "", room: "", notes: "", startNextUnitInNewWeek: false });
  }, [group, reset]);

  // Hours of each template follow its start and end (rounded to half hours) when end is after start.
  useEffect(() => {
    (watched ?? []).forEach((t, i) => {
      const h = templateHours(t?.startTime ?? "", t?.endTime ?? "");
      if (h !== null && Number(t?.duration) !== h) setValue(`sessionTemplates.${i}.duration`, h);
    });
  }, [watched, setValue]);
  // After a first submit, every change of a template re-checks them all: an overlap is between two
  // templates, so the message must go when either is fixed (not only the field being typed in).
  const submitted = formState.isSubmitted;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checked whenever the templates change (watched), not only when read
  useEffect(() => {
    if (submitted) void trigger("sessionTemplates");
  }, [watched, submitted, trigger]);

  const data = info.data;
  const plans = data?.studyPlans ?? [];
  const existing = data?.existingSessionCount ?? group?.timetableCount ?? 0;
  const allowed = group ? canSchedule(group.status) : false;

  const onSubmit = handleSubmit((values) =>
    generate.mutate(
      { ...values, roomType: values.room ? null : (values.roomType ?? null) },
      {
        onSuccess: (result) => {
          const skipped = result.holidaysSkipped?.length ? ` ${result.holidaysSkipped.length} holiday day(s) skipped.` : "";
          // The last class and the group's end date (last class + 1 month, docs/behaviour/generation.md §8) are different
          // dates: both are named (ADR 0018).
          const last = result.lastTeachingDate ? ` Last class on ${formatDate(result.lastTeachingDate)}.` : "";
          const end = result.endDate ? ` The group's end date is ${formatDate(result.endDate)}.` : "";
          notifySuccess(
            `Scheduled ${result.sessionsCreated} sessions (${hours(result.hoursScheduled)} hours) from ${formatDate(result.startDate)}.${last}${end}${skipped}${
              result.warnings?.length ? ` ${result.warnings.join(" ")}` : ""
            }`,
            "Block group scheduled",
          );
          onClose();
        },
        onError: (error) => {
          const f = classifyError(error);
          notifyError(
            "Failed to schedule block group",
            ("message" in f && f.message) || (f.kind === "validation" ? f.messages.join(" ") : "Please try again."),
          );
        },
      },
    ),
  );

  /** A session template's start or end time (typed as HH:MM). */
  const templateTime = (i: number, name: "startTime" | "endTime", which: string, placeholder: string) => (
    <TextInput
      label={`Template ${i + 1} ${which}`}
      placeholder={placeholder}
      maxLength={8}
      {...register(`sessionTemplates.${i}.${name}`)}
      error={formState.errors.sessionTemplates?.[i]?.[name]?.message}
    />
  );

  const confirmClear = () =>
    confirmAndMutate(clear, undefined, {
      title: "Clear Schedule",
      message: `Remove this block group's ${existing} timetable sessions that are not completed?`,
      confirm: "Clear Schedule",
      done: "Schedule cleared successfully",
      failed: ["Error", "Failed to clear schedule"],
    });

  return (
    <Modal opened={!!group} onClose={onClose} title={`Schedule Block Group - ${group?.code ?? ""}`} size="xl">
      {info.isLoading ? (
        <Group justify="center" p="xl">
          <Loader aria-label="Loading scheduling information" />
        </Group>
      ) : info.isError ? (
        <Notice color="red">Failed to load scheduling information</Notice>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {!allowed && group ? <Notice color="red">{cannotScheduleMessage(group.status)}</Notice> : null}
            {!plans.length ? <Notice color="yellow">Please assign a study plan before scheduling.</Notice> : null}
            {existing > 0 ? (
              <Notice color="yellow" data-testid="existing-sessions-warning">
                This block group already has {existing} scheduled sessions. Generating again only adds the hours still missing.
              </Notice>
            ) : null}
            <Paper withBorder p="md">
              <Title order={3} size="h5" mb="xs">
                Overview
              </Title>
              <SimpleGrid cols={{ base: 2, sm: 3 }}>
                <LabelledFigure label="Study Plan" value={plans.map((p) => p.name).join(", ") || "None"} />
                <LabelledFigure label="Total Facilitated Hours" value={hours(data?.totalFacilitatedHours)} />
                <LabelledFigure label="Estimated Sessions" value={String(data?.estimatedSessions ?? 0)} />
                <LabelledFigure label="Estimated Weeks" value={String(data?.estimatedWeeks ?? 0)} />
                <LabelledFigure label="Sessions Per Day" value={String(group?.sessionsPerDay ?? "")} />
                <LabelledFigure label="Preferred Days" value={daysText(group?.preferredDays) || "Not set"} />
              </SimpleGrid>
              {plans.length ? (
                <Table mt="sm" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Unit</Table.Th>
                      <Table.Th>Facilitated Hours</Table.Th>
                      <Table.Th>Timetabled</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {plans.flatMap((p) =>
                      p.units.map((u) => (
                        <Table.Tr key={`${p.id}-${u.id}`}>
                          <Table.Td>
                            {u.code} - {u.name}
                          </Table.Td>
                          <Table.Td>{hours(u.facilitatedHours)}</Table.Td>
                          <Table.Td>{hours(u.timetabledHours)}</Table.Td>
                        </Table.Tr>
                      )),
                    )}
                  </Table.Tbody>
                </Table>
              ) : null}
            </Paper>
            <Title order={3} size="h5">
              Session Configuration
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput type="date" label="Start Date" withAsterisk {...register("startDate")} error={formState.errors.startDate?.message} />
              <TextInput label="Room" placeholder="e.g. B2.14" maxLength={50} {...register("room")} error={formState.errors.room?.message} />
              <FormPicker
                control={control}
                name="roomType"
                none={null}
                label="Or a room type"
                description="Without a room: a free room of this type on the group's campus, seating the cohort, for each session"
                placeholder="No room"
                clearable
                disabled={!!roomText}
                data={choices(ROOM_TYPES)}
              />
            </SimpleGrid>
            {templates.fields.map((t, i) => (
              <Paper withBorder p="sm" key={t.id} data-testid="session-template">
                <Group align="flex-end" wrap="nowrap">
                  {templateTime(i, "startTime", "start", "09:00")}
                  {templateTime(i, "endTime", "end", "12:00")}
                  <TextInput
                    label="Hours"
                    readOnly
                    {...register(`sessionTemplates.${i}.duration`)}
                    error={formState.errors.sessionTemplates?.[i]?.duration?.message}
                    w={90}
                  />
                  <ActionIcon
                    variant="light"
                    color="red"
                    size="lg"
                    aria-label={`Remove template ${i + 1}`}
                    disabled={templates.fields.length <= 1}
                    onClick={() => templates.remove(i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
            {formState.errors.sessionTemplates?.message || formState.errors.sessionTemplates?.root?.message ? (
              <Text c="red" size="sm">
                {formState.errors.sessionTemplates?.message ?? formState.errors.sessionTemplates?.root?.message}
              </Text>
            ) : null}
            <Group>
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => templates.append(NEXT_TEMPLATE)}>
                Add Template
              </Button>
            </Group>
            <Textarea label="Notes" autosize minRows={2} {...register("notes")} />
            <FormSwitch control={control} name="startNextUnitInNewWeek" label="Start each next unit in a new week" />
            {existing > 0 && allowed ? (
              <Tag color="gray" variant="light">
                {existing} existing sessions
              </Tag>
            ) : null}
            <Group justify="space-between">
              <div>
                {existing > 0 && allowed ? (
                  <Button color="red" variant="light" onClick={confirmClear} loading={clear.isPending}>
                    Clear Schedule
                  </Button>
                ) : null}
              </div>
              <Group>
                <Button variant="default" onClick={onClose}>
                  Cancel
                </Button>
                <Button type="submit" loading={generate.isPending} disabled={!allowed || !plans.length}>
                  Generate Schedule
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
