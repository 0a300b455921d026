import { Alert, Button, Group, Loader, Stack, Tabs, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { DataTable } from "../../components/DataTable";
import { formatDate, displayTime } from "../../components/Dates";
import { plural } from "../timetables/auto-allocation/format";
import { classifyError, notifySuccess } from "../../components/Notify";
import { useApplyReplan, useProposal, type ChangeQuery, type Proposal, type ReplanChange } from "./api";

const place = (p: ReplanChange["from"]) => `${formatDate(p.actualDate)} ${displayTime(p.startTime)}–${displayTime(p.endTime)} · ${p.teacherName}`;

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
        { label: "Before", cell: (c) => place(c.from) },
        { label: "After", cell: (c) => place(c.to) },
        { label: "Why", cell: (c) => c.reason },
      ]}
    />
  );
}

function Summary({ proposal }: { proposal: Proposal }) {
  const f = proposal.figures;
  return (
    <Text size="sm" data-testid="replan-summary">
      {proposal.description}: {plural(f.sessionsHit, "session")} hit · {plural(f.sessionsMoved, "session")} moved · {plural(f.teachersChanged, "teacher")}{" "}
      changed
      {f.unresolved ? ` · ${f.unresolved} not fixed` : ""}
      {f.endDatesExtended.map((e) => ` · ${e.code} now ends ${formatDate(e.to)}`).join("")}
    </Text>
  );
}

/**
 * The re-plan review (issue 17): the proposal of POST /api/replan/propose as a diff by block group and by
 * teacher (before → after, why), the sessions it cannot fix in red, and Apply (all-or-nothing; the
 * success toast offers Undo). Opened from the "Sessions affected" toast and from leave rows.
 */
export function ReplanReview({ change, onClose }: { change: ChangeQuery; onClose: () => void }) {
  const proposal = useProposal(change);
  const apply = useApplyReplan();
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
  const failure = apply.isError ? classifyError(apply.error) : null;
  const submit = () =>
    apply.mutate(
      { proposal: p, option: p.preselected },
      {
        onSuccess: (done) => {
          notifySuccess("Re-plan applied", `${plural(done.sessionIds.length, "session")} updated`);
          onClose();
        },
      },
    );
  return (
    <Stack>
      <Summary proposal={p} />
      {p.unresolved.length ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={`${plural(p.unresolved.length, "session")} could not be fixed`}>
          <Stack gap={4}>
            {p.unresolved.map((u) => (
              <Text key={u.sessionId} size="sm" data-testid="replan-unresolved">
                <b>{u.unitCode}</b> {u.blockGroupCode} {formatDate(u.actualDate)} {displayTime(u.startTime)}: {u.reason}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {p.changes.length ? (
        <Tabs defaultValue="groups">
          <Tabs.List>
            <Tabs.Tab value="groups">By block group</Tabs.Tab>
            <Tabs.Tab value="teachers">By teacher</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="groups" pt="sm">
            {groupBy(p.changes, (c) => c.blockGroupCode).map(([code, rows]) => (
              <Stack key={code} gap={4} mb="sm">
                <Text fw={600}>{code}</Text>
                <ChangeTable rows={rows} label={`Changes of ${code}`} />
              </Stack>
            ))}
          </Tabs.Panel>
          <Tabs.Panel value="teachers" pt="sm">
            {groupBy(p.changes, (c) => c.from.teacherName).map(([name, rows]) => (
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
        <Button onClick={submit} loading={apply.isPending} disabled={!p.changes.length || proposal.isFetching}>
          Apply re-plan
        </Button>
      </Group>
    </Stack>
  );
}
