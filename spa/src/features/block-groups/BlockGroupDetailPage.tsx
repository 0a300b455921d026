import { ActionIcon, Button, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title, Tooltip } from "@mantine/core";
import { Notice } from "../../components/Notice";
import { Tag } from "../../components/Tag";
import { modals } from "@mantine/modals";
import { IconCalendarPlus, IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useLocation, useParams } from "react-router";
import { formatDate, hours } from "../../components/Dates";
import { LivePresence } from "../../components/LivePresence";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { HistoryPanel } from "../history/HistoryPanel";
import { SubscribeButton } from "../calendar-feeds/SubscribeButton";
import { FullPageLoader, RecordLoadError } from "../../components/States";
import { daysText, DELIVERY_LABELS, statusColor, statusLabel, STUDY_LABELS, useBlockGroup } from "./api/blockGroups";
import { usePlanLinks, useReconciliation, useRemovePlan, useTimetabledUnits, type HourReconciliation } from "./api/scheduling";
import { AssignPlanModal } from "./components/AssignPlanModal";
import { BlockGroupFormModal } from "./components/BlockGroupFormModal";
import { canSchedule, cannotScheduleMessage, ScheduleModal } from "./components/ScheduleModal";

const BREAKDOWN_LABELS: [keyof HourReconciliation["breakdown"], string][] = [
  ["faceToFaceHours", "Face to Face"],
  ["facilitatedELearningHours", "Facilitated e-Learning"],
  ["workIntegratedLearningHours", "Work Integrated Learning"],
  ["inClassAssessmentHours", "In-Class Assessment"],
  ["structuredLearningHours", "Structured Learning"],
  ["workIntegratedLearningBalanceHours", "WIL Balance"],
  ["cumulativeAssessmentHours", "Cumulative Assessment"],
];

/** Block group detail (/block-groups/:id): delivery.md §2. */
export default function BlockGroupDetailPage() {
  const { id = "" } = useParams();
  const location = useLocation();
  const { data: group, isLoading, isError, error, refetch } = useBlockGroup(id);
  const links = usePlanLinks(id);
  const recon = useReconciliation(id);
  const timetabled = useTimetabledUnits(id);
  const removePlan = useRemovePlan(id);
  const [editOpen, setEditOpen] = useState(false);
  const [assignOpen, setAssignOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  if (isLoading) return <FullPageLoader />;
  if (isError || !group)
    return (
      <RecordLoadError
        error={error}
        message="Failed to load block groups. Please try again."
        onRetry={() => void refetch()}
        back={{ to: "/block-groups", label: "Back to Block Groups" }}
      />
    );
  const schedulable = canSchedule(group.status);

  const confirmRemove = (studyPlanId: string, name: string) =>
    modals.openConfirmModal({
      title: "Remove Study Plan",
      children: <Text size="sm">Remove the study plan {name} from this block group?</Text>,
      labels: { confirm: "Remove", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        removePlan.mutate(studyPlanId, {
          onSuccess: () => notifySuccess("Study plan removed successfully"),
          onError: () => notifyError("Error", "Failed to remove study plan"),
        }),
    });

  return (
    <>
      <PageHeader
        title={group.name}
        subtitle={
          <Group gap="xs" component="span">
            <Text span ff="monospace">
              {group.code}
            </Text>
            <Tag color={statusColor(group.status)}>{statusLabel(group.status)}</Tag>
            <Tag variant="light" color="cyan">
              {DELIVERY_LABELS[group.deliveryMode]}
            </Tag>
            <Tag variant="light" color="grape">
              {STUDY_LABELS[group.studyMode]}
            </Tag>
          </Group>
        }
        actions={
          <>
            <LivePresence path={location.pathname} />
            <Tooltip label={schedulable ? "Generate the timetable" : cannotScheduleMessage(group.status)} multiline w={260}>
              <Button
                variant="light"
                color="teal"
                leftSection={<IconCalendarPlus size={16} />}
                data-disabled={!schedulable || undefined}
                aria-disabled={!schedulable || undefined}
                onClick={schedulable ? () => setScheduleOpen(true) : (e) => e.preventDefault()}
              >
                Schedule
              </Button>
            </Tooltip>
            <SubscribeButton target={{ blockGroupId: group.id }} name={group.code} />
            <Button leftSection={<IconEdit size={16} />} onClick={() => setEditOpen(true)}>
              Edit
            </Button>
          </>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Group Details
          </Title>
          <SimpleGrid cols={2}>
            <Item label="Code" value={group.code} />
            <Item label="Cohort Size" value={String(group.cohortSize)} />
            <Item label="Start Date" value={formatDate(group.startDate)} />
            <Item label="End Date" value={formatDate(group.endDate, "Not set (auto-calculated when scheduled)")} />
            <Item label="Status" value={statusLabel(group.status)} />
            <Item label="Course" value={group.course ? `${group.course.code} - ${group.course.name}` : "None"} />
          </SimpleGrid>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Schedule Details
          </Title>
          <SimpleGrid cols={2}>
            <Item label="Session Duration" value={`${hours(group.sessionDuration)} hours`} />
            <Item label="Sessions Per Day" value={String(group.sessionsPerDay)} />
            <Item label="Preferred Days" value={daysText(group.preferredDays) || "Not set"} />
            <Item label="Timetable Sessions" value={String(group.timetableCount)} />
          </SimpleGrid>
        </Card>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <Card withBorder data-testid="hour-reconciliation">
          <Title order={2} size="h4" mb="sm">
            Hour Reconciliation
          </Title>
          {recon.isError ? (
            <Notice color="red">Failed to load hour reconciliation.</Notice>
          ) : recon.data ? (
            <Stack gap="xs">
              <SimpleGrid cols={2}>
                <Item label="Total Nominal Hours" value={hours(recon.data.totalNominalHours)} />
                <Item label="Total Actual Hours" value={hours(recon.data.totalActualHours)} />
                <Item label="Self Directed Hours" value={hours(recon.data.totalSelfDirectedHours)} />
                <Item label="Efficiency Rate" value={`${Number(recon.data.efficiencyRate ?? 0).toFixed(1)}%`} />
              </SimpleGrid>
              <Table>
                <Table.Tbody>
                  {BREAKDOWN_LABELS.map(([key, label]) => (
                    <Table.Tr key={key}>
                      <Table.Td>{label}</Table.Td>
                      <Table.Td ta="right">{hours(recon.data.breakdown?.[key])}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ) : (
            <Text c="dimmed">Loading...</Text>
          )}
        </Card>
        <Card withBorder data-testid="timetabled-units">
          <Title order={2} size="h4" mb="sm">
            Timetabled Units Summary
          </Title>
          {!timetabled.data?.length ? (
            <Text c="dimmed">No units timetabled yet.</Text>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Unit</Table.Th>
                  <Table.Th>Nominal</Table.Th>
                  <Table.Th>Planned</Table.Th>
                  <Table.Th>Timetabled</Table.Th>
                  <Table.Th>Progress</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {timetabled.data.map((u) => {
                  // Against the hours the study plan plans for the unit (what scheduling aims for), not its
                  // nominal hours: a fully scheduled unit is 100% (issue 18). A unit of no plan: nominal.
                  const target = u.plannedHours ?? u.nominalHours;
                  const pct = target ? (u.timetabledHours / target) * 100 : 0;
                  const variance = target ? Math.abs(u.timetabledHours - target) / target > 0.1 : false;
                  return (
                    <Table.Tr key={u.unitCode}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {u.unitCode}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {u.unitName}
                        </Text>
                      </Table.Td>
                      <Table.Td>{u.nominalHours}</Table.Td>
                      <Table.Td>{u.plannedHours === null || u.plannedHours === undefined ? "-" : hours(u.plannedHours)}</Table.Td>
                      <Table.Td>
                        {hours(u.timetabledHours)}{" "}
                        {variance ? (
                          <Tag size="xs" color="orange" variant="light" title={`${Math.round(pct)}% of the ${hours(target)} hours planned`}>
                            {pct >= 100 ? "+" : ""}
                            {Math.round(pct - 100)}%
                          </Tag>
                        ) : null}
                      </Table.Td>
                      <Table.Td w={120}>
                        <Progress value={Math.min(100, pct)} aria-label={`${u.unitCode} timetabled ${Math.round(pct)}%`} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            Study Plans
          </Title>
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAssignOpen(true)}>
            Assign Study Plan
          </Button>
        </Group>
        {!links.data?.length ? (
          <Text c="dimmed">No study plans assigned.</Text>
        ) : (
          <Stack>
            {links.data.map((link) => {
              const total = link.studyPlan.units.reduce(
                (s, u) => s + u.faceToFaceHours + u.facilitatedELearningHours + u.workIntegratedLearningHours + u.inClassAssessmentHours,
                0,
              );
              return (
                <Card withBorder key={link.id} data-testid="assigned-plan">
                  <Group justify="space-between">
                    <Stack gap={2}>
                      <Text fw={600}>{link.studyPlan.name}</Text>
                      <Text size="sm" c="dimmed">
                        {link.studyPlan.units.length} units, {hours(total)} actual hours
                      </Text>
                    </Stack>
                    <ActionIcon
                      variant="light"
                      color="red"
                      aria-label={`Remove study plan ${link.studyPlan.name}`}
                      onClick={() => confirmRemove(link.studyPlanId, link.studyPlan.name)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Card>
              );
            })}
          </Stack>
        )}
      </Card>
      <HistoryPanel id={id} />
      <BlockGroupFormModal opened={editOpen} onClose={() => setEditOpen(false)} group={group} />
      <AssignPlanModal groupId={id} opened={assignOpen} onClose={() => setAssignOpen(false)} assignedIds={(links.data ?? []).map((l) => l.studyPlanId)} />
      <ScheduleModal group={scheduleOpen ? group : null} onClose={() => setScheduleOpen(false)} />
    </>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}
