/**
 * "Suggest allocation": asks the server for a proposal for a scope, previews it per teacher
 * and per session with the before → after figures and the sessions nobody can take, and applies it on
 * request. A proposal that went out of date (412) is never applied: the dialog offers a new suggestion.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  useComputedColorScheme,
} from "@mantine/core";
import { FormActions } from "@/components/FormActions";
import { lightTagText } from "@/components/Tag";
import { IconArrowRight } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { formatDate, displayTime } from "@/components/Dates";
import { classifyError, notifyError, notifySuccess } from "@/components/Notify";
import { ApiError, errorMessage } from "@/lib/api";
import { useAllocationProposal, useApplyProposal, type AllocationFigures, type AllocationScope, type Proposal } from "./api";
import { hoursText, percent, plural, solveTime } from "@/lib/format";
import { solverStatus } from "./format";

export const STALE_PROPOSAL = "The timetable changed since this suggestion was made";
export const NOTHING_TO_ALLOCATE = "Every session in this selection already has a teacher.";
export const FINDING = "Finding the best allocation…";

export interface SuggestAllocationDialogProps {
  opened: boolean;
  onClose: () => void;
  scope: AllocationScope;
  /** Called with the server's answer after a proposal was written. */
  onApplied?: (result: Proposal) => void;
}

export function SuggestAllocationDialog({ opened, onClose, scope, onApplied }: SuggestAllocationDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Suggest allocation" size="xl" closeOnClickOutside={false}>
      {opened ? <ProposalView scope={scope} onClose={onClose} onApplied={onApplied} /> : null}
    </Modal>
  );
}

/** The field messages of a 400 answer when there are any, else the server's message. */
function describeError(error: unknown, fallback: string): string {
  const fields = error instanceof ApiError ? (error.body?.errors ?? []).map((e) => e.message) : [];
  return fields.length ? fields.join(" ") : errorMessage(error, fallback);
}

type ApplyProblem = { stale: boolean; message: string } | null;

function ProposalView({ scope, onClose, onApplied }: { scope: AllocationScope; onClose: () => void; onApplied?: (result: Proposal) => void }) {
  const proposal = useAllocationProposal(scope);
  const apply = useApplyProposal();
  const [problem, setProblem] = useState<ApplyProblem>(null);
  const data = proposal.data;

  const suggestAgain = () => {
    setProblem(null);
    apply.reset();
    void proposal.refetch();
  };

  const submit = () => {
    if (!data) return;
    setProblem(null);
    apply.mutate(
      { scope, proposal: data },
      {
        onSuccess: (result) => {
          notifySuccess(`${plural(result.assignments.length, "session")} allocated.`, "Teachers allocated");
          onApplied?.(result);
          onClose();
        },
        onError: (error) => {
          const failure = classifyError(error);
          if (failure.kind === "stale") {
            setProblem({ stale: true, message: STALE_PROPOSAL });
          } else {
            const message = describeError(error, "The allocation could not be applied. Please try again.");
            setProblem({ stale: failure.kind === "validation", message });
            notifyError("Allocation not applied", message);
          }
        },
      },
    );
  };

  if (proposal.isFetching || proposal.isPending) {
    return (
      <Stack align="center" gap="sm" py="xl" role="status" aria-live="polite">
        <Loader aria-hidden />
        <Text>{FINDING}</Text>
        <Text size="sm" c="gray.7">
          This can take a few seconds.
        </Text>
      </Stack>
    );
  }

  if (proposal.isError || !data) {
    return (
      <Stack>
        <Alert color="red" title="No suggestion could be made" role="alert">
          {describeError(proposal.error, "The server could not make a suggestion. Please try again.")}
        </Alert>
        <FormActions onCancel={onClose} submitLabel="Suggest again" onSubmit={suggestAgain} />
      </Stack>
    );
  }

  if (data.sessionsInScope === 0) {
    return (
      <Stack>
        <Alert color="blue" title="Nothing to allocate">
          {NOTHING_TO_ALLOCATE}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  const blocked = problem?.stale ?? false;
  return (
    <Stack gap="md">
      <Group gap="xs" data-testid="proposal-summary">
        <Pill color="gray">{plural(data.sessionsInScope, "session")} in scope</Pill>
        <Pill color="green">{data.assignments.length} assigned</Pill>
        <Pill color={data.unassignable.length ? "red" : "gray"}>{data.unassignable.length} cannot be allocated</Pill>
        <Pill color="blue">
          {solverStatus(data.status)} · {solveTime(data.solveMs)}
        </Pill>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Figure label="Continuity" hint="Units taught to a group by a single teacher" before={data.before} after={data.after} field="continuityPercent" />
        <Figure label="Highest weekly utilisation" hint="The busiest teacher-week" before={data.before} after={data.after} field="highestUtilisation" />
        <Figure label="Mean weekly utilisation" hint="Across active teachers in these weeks" before={data.before} after={data.after} field="meanUtilisation" />
      </SimpleGrid>

      {data.assignments.length ? (
        <Tabs defaultValue="teacher" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="teacher">By teacher ({data.perTeacher.length})</Tabs.Tab>
            <Tabs.Tab value="session">By session ({data.assignments.length})</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="teacher" pt="sm">
            <ScrollArea.Autosize mah={320} type="auto">
              <Table striped stickyHeader aria-label="Proposal by teacher">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Teacher</Table.Th>
                    <Table.Th ta="right">Sessions</Table.Th>
                    <Table.Th ta="right">Hours</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.perTeacher.map((t) => (
                    <Table.Tr key={t.teacherId}>
                      <Table.Td>{t.teacherName}</Table.Td>
                      <Table.Td ta="right">{t.sessions}</Table.Td>
                      <Table.Td ta="right">{hoursText(t.hours)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </Tabs.Panel>
          <Tabs.Panel value="session" pt="sm">
            <ScrollArea.Autosize mah={320} type="auto">
              <SessionsTable
                label="Proposal by session"
                sessions={data.assignments}
                last="Teacher"
                lastCell={(a) => <Table.Td>{a.teacherName}</Table.Td>}
                striped
              />
            </ScrollArea.Autosize>
          </Tabs.Panel>
        </Tabs>
      ) : (
        <Text c="gray.7">No session in this selection can be given a teacher.</Text>
      )}

      {data.unassignable.length ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            Cannot be allocated ({data.unassignable.length})
          </Title>
          <ScrollArea.Autosize mah={200} type="auto">
            <SessionsTable
              label="Sessions that cannot be allocated"
              sessions={data.unassignable}
              last="Reason"
              lastCell={(u) => <Table.Td c="red.9">{u.reason}</Table.Td>}
            />
          </ScrollArea.Autosize>
        </Stack>
      ) : null}

      {problem ? (
        <Alert color={problem.stale ? "yellow" : "red"} title={problem.stale ? problem.message : "Allocation not applied"} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{problem.stale ? "Nothing was changed. Make a new suggestion and review it before applying." : problem.message}</Text>
            <Button size="xs" variant="light" onClick={suggestAgain}>
              Suggest again
            </Button>
          </Stack>
        </Alert>
      ) : null}

      <FormActions
        onCancel={onClose}
        cancelDisabled={apply.isPending}
        submitLabel="Apply allocation"
        onSubmit={submit}
        loading={apply.isPending}
        disabled={!data.assignments.length || blocked}
      />
    </Stack>
  );
}

/** A proposal's sessions: date, time, block group, unit, and the `last` column (the teacher, or why none can take it). */
function SessionsTable<S extends { sessionId: string; date: string; startTime: string; endTime: string; blockGroupCode: string; unitCode: string }>({
  label,
  sessions,
  last,
  lastCell,
  striped,
}: {
  label: string;
  sessions: S[];
  last: string;
  lastCell: (session: S) => ReactNode;
  /** The longer list of the proposal itself: striped, with its header kept in view. */
  striped?: boolean;
}) {
  return (
    <Table striped={striped} stickyHeader={striped} aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Date</Table.Th>
          <Table.Th>Time</Table.Th>
          <Table.Th>Block group</Table.Th>
          <Table.Th>Unit</Table.Th>
          <Table.Th>{last}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sessions.map((s) => (
          <Table.Tr key={s.sessionId}>
            <Table.Td>{formatDate(s.date)}</Table.Td>
            <Table.Td>
              {displayTime(s.startTime)}–{displayTime(s.endTime)}
            </Table.Td>
            <Table.Td>{s.blockGroupCode}</Table.Td>
            <Table.Td>{s.unitCode}</Table.Td>
            {lastCell(s)}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const FIGURE_COLORS: Record<string, string> = { gray: "gray.8", green: "green.9", red: "red.9", blue: "blue.9" };

/** A light badge whose text meets WCAG AA in both themes (dark text on light, light text on dark). */
function Pill({ color, children }: { color: keyof typeof FIGURE_COLORS; children: ReactNode }) {
  const scheme = useComputedColorScheme("light");
  return (
    <Badge color={color} variant="light" c={scheme === "dark" ? lightTagText(color, "dark") : FIGURE_COLORS[color]} size="lg" tt="none">
      {children}
    </Badge>
  );
}

function Figure({
  label,
  hint,
  before,
  after,
  field,
}: {
  label: string;
  hint: string;
  before: AllocationFigures;
  after: AllocationFigures;
  field: keyof AllocationFigures;
}) {
  return (
    <Paper
      withBorder
      p="sm"
      data-testid={`figure-${field}`}
      aria-label={`${label}: ${percent(before[field])} before, ${percent(after[field])} after`}
      role="group"
    >
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap={6} align="center" aria-hidden>
        <Text size="lg" c="gray.7">
          {percent(before[field])}
        </Text>
        <IconArrowRight size={16} />
        <Text size="lg" fw={700}>
          {percent(after[field])}
        </Text>
      </Group>
      <Text size="xs" c="gray.7">
        {hint}
      </Text>
    </Paper>
  );
}
