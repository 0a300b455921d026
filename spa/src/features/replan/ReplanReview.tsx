import { Alert, Button, Group, Loader, Paper, Radio, Stack, Tabs, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "@/components/DataTable";
import { displayTime } from "@/components/Dates";
import { classifyError, notifySuccess } from "@/components/Notify";
import { SessionCalendar } from "@/components/calendar/SessionCalendar";
import { timetablesQueryOptions } from "@/lib/entities/timetables";
import type { BoardSession } from "@/lib/entities/planner";
import { plural } from "@/lib/format";
import type { ChangeQuery } from "@/lib/replan";
import { useApplyReplan, useProposal, type OptionKey, type Proposal, type ReplanChange, type ReplanOption } from "./api";
import { affectedWeeks, localDates, optionFigures, summarySentence, weekday } from "./summary";

const times = (p: ReplanChange["from"]) => `${displayTime(p.startTime)}–${displayTime(p.endTime)}`;
const before = (c: ReplanChange) => `${weekday(c.from.actualDate)} ${times(c.from)} · ${c.from.teacherName}`;
/** The new place: the date and time, and the teacher only when it changes. */
const after = (c: ReplanChange) => `${weekday(c.to.actualDate)} ${times(c.to)}${c.to.teacherId !== c.from.teacherId ? ` · ${c.to.teacherName}` : ""}`;

function groupBy<T>(items: T[], key: (item: T) => string): [string, T[]][] {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return [...out.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function ChangeTable({ rows, label }: { rows: ReplanChange[]; label: string }) {
  return (
    <DataTable
      striped
      minWidth={720}
      aria-label={label}
      rows={rows}
      rowKey={(c) => c.sessionId}
      rowProps={() => ({ "data-testid": "replan-change" })}
      columns={[
        {
          label: "Unit",
          cell: (c) => (
            <>
              <b>{c.unitCode}</b> {c.blockGroupCode}
            </>
          ),
        },
        { label: "Before", cell: before },
        { label: "After", cell: after },
        { label: "Why", cell: (c) => localDates(c.reason) },
      ]}
    />
  );
}

/** Up to this many block groups' timetables are read to show their other sessions in the affected weeks. */
const GRID_GROUPS = 4;

/** A change's session at `place` in the planner board's shape (the unit keyed by its code, for its colour). */
function boardSession(c: ReplanChange, place: ReplanChange["from"]): BoardSession {
  return {
    id: c.sessionId,
    actualDate: place.actualDate,
    startTime: place.startTime,
    endTime: place.endTime,
    actualHours: c.actualHours,
    blockGroup: { id: c.blockGroupId, code: c.blockGroupCode, name: c.blockGroupCode },
    unit: { id: c.unitCode, code: c.unitCode, name: c.unitCode },
    teacher: place.teacherId ? { id: place.teacherId, name: place.teacherName } : null,
    room: "",
    roomId: null,
    status: "scheduled",
    updatedAt: "",
  };
}

/**
 * The affected weeks (at most four) on the planner board's read-only calendar (SessionCalendar): the
 * moved sessions highlighted where they arrive and outlined where they leave, and, when the moves are of
 * at most four block groups, those groups' other sessions as they stay (their timetables read with
 * GET /api/timetables?blockGroupId=).
 */
function WeekGrid({ changes }: { changes: ReplanChange[] }) {
  const moved = changes.filter((c) => c.from.actualDate !== c.to.actualDate || c.from.startTime !== c.to.startTime || c.from.endTime !== c.to.endTime);
  const groups = [...new Set(moved.map((c) => c.blockGroupId))];
  const read = groups.length <= GRID_GROUPS ? groups : [];
  const timetables = useQueries({
    queries: read.map((id) => timetablesQueryOptions({ blockGroupId: id, teacherId: null, hidePast: false })),
  });
  const movedIds = new Set(moved.map((c) => c.sessionId));
  const stays: BoardSession[] = timetables.flatMap((q) =>
    (q.data ?? [])
      .filter((s) => s.status !== "cancelled" && !movedIds.has(s.id))
      .map((s) => ({
        id: s.id,
        actualDate: s.actualDate,
        startTime: s.startTime,
        endTime: s.endTime,
        actualHours: 0,
        blockGroup: { id: s.blockGroupId, code: s.blockGroup?.code ?? "", name: s.blockGroup?.code ?? "" },
        unit: { id: s.unit?.code ?? "", code: s.unit?.code ?? "", name: s.unit?.code ?? "" },
        teacher: s.teacher ? { id: s.teacher.id, name: `${s.teacher.firstName} ${s.teacher.lastName}` } : null,
        room: s.room ?? "",
        roomId: null,
        status: s.status,
        updatedAt: "",
      })),
  );
  const { weeks, more } = affectedWeeks(moved, 4);
  if (!weeks.length) return null;
  const after = [...stays, ...moved.map((c) => boardSession(c, c.to))];
  const before = moved.map((c) => boardSession(c, c.from));
  return (
    <Stack gap="sm" aria-label="Affected weeks">
      {weeks.map((week) => (
        <Paper key={week.start} withBorder p="xs" data-testid="replan-week">
          <SessionCalendar sessions={after} before={before} date={week.start} />
        </Paper>
      ))}
      <Text size="xs" c="dimmed">
        Outlined: where a session leaves. Highlighted: where it arrives.
        {more ? ` And ${plural(more, "more week")}: every change is in the lists below.` : ""}
      </Text>
    </Stack>
  );
}

function OptionChoice({ proposal, value, onChange }: { proposal: Proposal; value: OptionKey; onChange: (key: OptionKey) => void }) {
  if (proposal.options.length < 2) return null;
  return (
    <Radio.Group label="How to fix it" value={value} onChange={(v) => onChange(v as OptionKey)}>
      <Stack gap="xs" mt={4}>
        {proposal.options.map((o) => (
          <Radio key={o.key} value={o.key} label={o.label} description={<span data-testid={`replan-option-${o.key}`}>{optionFigures(o)}</span>} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

function Unresolved({ option }: { option: ReplanOption }) {
  if (!option.unresolved.length) return null;
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={`${plural(option.unresolved.length, "session")} could not be fixed`}>
      <Stack gap={4}>
        {option.unresolved.map((u) => (
          <Text key={u.sessionId} size="sm" data-testid="replan-unresolved">
            <b>{u.unitCode}</b> {u.blockGroupCode} {weekday(u.actualDate)} {displayTime(u.startTime)}: {localDates(u.reason)}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * The re-plan review (ADR 0015): a summary sentence first, the choice between the proposal's
 * options (make-up or shift, with their figures; the server's preselected one chosen), the affected weeks
 * before and after, the sessions it cannot fix in red, the changes by block group and by teacher, and
 * Apply, which writes the chosen option of the stored proposal exactly (POST /api/replan/apply). Opened
 * from the impact notice, holiday cards, campus closures and leave rows.
 */
export function ReplanReview({ change, onClose }: { change: ChangeQuery; onClose: () => void }) {
  const proposal = useProposal(change);
  const apply = useApplyReplan();
  const [picked, setPicked] = useState<OptionKey | null>(null);
  if (proposal.isLoading) {
    return (
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm">Working out the least disruptive re-plan…</Text>
      </Group>
    );
  }
  if (proposal.isError || !proposal.data) {
    const failure = classifyError(proposal.error);
    return (
      <Alert color="red" title="Could not make a re-plan">
        {("message" in failure && failure.message) || "Please try again."}
      </Alert>
    );
  }
  const p = proposal.data;
  const option = p.options.find((o) => o.key === picked) ?? p.options.find((o) => o.key === p.preselected) ?? p.options[0];
  const failure = apply.isError ? classifyError(apply.error) : null;
  const submit = () =>
    apply.mutate(
      { proposal: p, option: option.key },
      {
        onSuccess: (done) => {
          notifySuccess(`${plural(done.sessionIds.length, "session")} updated (${option.label.toLowerCase()})`, "Re-plan applied");
          onClose();
        },
      },
    );
  return (
    <Stack>
      <Text size="sm" data-testid="replan-summary">
        {summarySentence(p)}
      </Text>
      <OptionChoice proposal={p} value={option.key} onChange={setPicked} />
      <Unresolved option={option} />
      <WeekGrid changes={option.changes} />
      {option.changes.length ? (
        <Tabs defaultValue="groups">
          <Tabs.List>
            <Tabs.Tab value="groups">By block group</Tabs.Tab>
            <Tabs.Tab value="teachers">By teacher</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="groups" pt="sm">
            {groupBy(option.changes, (c) => c.blockGroupCode).map(([code, rows]) => (
              <Stack key={code} gap={4} mb="sm">
                <Text fw={600}>{code}</Text>
                <ChangeTable rows={rows} label={`Changes of ${code}`} />
              </Stack>
            ))}
          </Tabs.Panel>
          <Tabs.Panel value="teachers" pt="sm">
            {groupBy(option.changes, (c) => c.from.teacherName).map(([name, rows]) => (
              <Stack key={name} gap={4} mb="sm">
                <Text fw={600}>{name}</Text>
                <ChangeTable rows={rows} label={`Changes of ${name}'s sessions`} />
              </Stack>
            ))}
          </Tabs.Panel>
        </Tabs>
      ) : (
        <Text c="dimmed">Nothing to change.</Text>
      )}
      {failure ? (
        <Alert color="red" title={failure.kind === "stale" ? "The timetable changed" : "Could not apply the re-plan"} role="alert">
          {("message" in failure && failure.message) || "Please try again."}
          {failure.kind === "stale" ? (
            <Button
              size="compact-sm"
              variant="light"
              ml="sm"
              onClick={() => {
                apply.reset();
                void proposal.refetch();
              }}
            >
              Make a new proposal
            </Button>
          ) : null}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={apply.isPending} disabled={!option.changes.length || proposal.isFetching}>
          Apply re-plan
        </Button>
      </Group>
    </Stack>
  );
}
