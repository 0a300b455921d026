import { Button, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Tooltip } from "@mantine/core";
import { Notice } from "@/components/Notice";
import { Tag } from "@/components/Tag";
import { IconCalendarPlus, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useLocation, useParams } from "react-router";
import { formatDate, hours } from "@/components/Dates";
import { LivePresence } from "@/components/LivePresence";
import { CodeOverName, DataTable } from "@/components/DataTable";
import { DetailEditButton, DetailField, DetailSection, detailPageFallback } from "@/components/DetailPage";
import { confirmAndMutate, DeleteAction } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { HistoryPanel } from "@/components/history/HistoryPanel";
import { SubscribeButton } from "@/components/SubscribeButton";
import { PlannerLink } from "@/components/PlannerLink";
import { daysText, DELIVERY_LABELS, statusColor, statusLabel, STUDY_LABELS, useBlockGroup } from "./api/blockGroups";
import { usePlanLinks, useReconciliation, useRemovePlan, useTimetabledUnits, type HourReconciliation, type TimetabledUnit } from "./api/scheduling";
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

/**
 * A unit's timetabled hours against the hours its study plan plans for it (what scheduling aims for),
 * not its nominal hours: a fully scheduled unit is 100% (ADR 0018). A unit of no plan: nominal.
 */
function progressOf(u: TimetabledUnit) {
  const target = u.plannedHours ?? u.nominalHours;
  return { target, pct: target ? (u.timetabledHours / target) * 100 : 0 };
}

/** Block group detail (/block-groups/:id): docs/behaviour/block-groups.md. */
export default function BlockGroupDetailPage() {
  const { id = "" } = useParams();
  const location = useLocation();
  const query = useBlockGroup(id);
  const group = query.data;
  const links = usePlanLinks(id);
  const recon = useReconciliation(id);
  const timetabled = useTimetabledUnits(id);
  const removePlan = useRemovePlan(id);
  const [editOpen, setEditOpen] = useState(false);
  const [assignOpen, setAssignOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const fallback = detailPageFallback(query, "Failed to load block groups. Please try again.", { to: "/block-groups", label: "Back to Block Groups" });
  if (fallback || !group) return fallback;
  const schedulable = canSchedule(group.status);

  const confirmRemove = (studyPlanId: string, name: string) =>
    confirmAndMutate(removePlan, studyPlanId, {
      title: "Remove Study Plan",
      message: `Remove the study plan ${name} from this block group?`,
      confirm: "Remove",
      done: "Study plan removed successfully",
      failed: ["Error", "Failed to remove study plan"],
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
            <PlannerLink scope="block-group" id={group.id} name={group.code} />
            <SubscribeButton target={{ blockGroupId: group.id }} name={group.code} />
            <DetailEditButton onClick={() => setEditOpen(true)} />
          </>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <DetailSection title="Group Details">
          <SimpleGrid cols={2}>
            <DetailField compact label="Code" value={group.code} />
            <DetailField compact label="Cohort Size" value={String(group.cohortSize)} />
            <DetailField compact label="Start Date" value={formatDate(group.startDate)} />
            <DetailField compact label="End Date" value={formatDate(group.endDate, "Not set (auto-calculated when scheduled)")} />
            <DetailField compact label="Status" value={statusLabel(group.status)} />
            <DetailField compact label="Course" value={group.course ? `${group.course.code} - ${group.course.name}` : "None"} />
          </SimpleGrid>
        </DetailSection>
        <DetailSection title="Schedule Details">
          <SimpleGrid cols={2}>
            <DetailField compact label="Session Duration" value={`${hours(group.sessionDuration)} hours`} />
            <DetailField compact label="Sessions Per Day" value={String(group.sessionsPerDay)} />
            <DetailField compact label="Preferred Days" value={daysText(group.preferredDays) || "Not set"} />
            <DetailField compact label="Timetable Sessions" value={String(group.timetableCount)} />
          </SimpleGrid>
        </DetailSection>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <DetailSection title="Hour Reconciliation" data-testid="hour-reconciliation">
          {recon.isError ? (
            <Notice color="red">Failed to load hour reconciliation.</Notice>
          ) : recon.data ? (
            <Stack gap="xs">
              <SimpleGrid cols={2}>
                <DetailField compact label="Total Nominal Hours" value={hours(recon.data.totalNominalHours)} />
                <DetailField compact label="Total Actual Hours" value={hours(recon.data.totalActualHours)} />
                <DetailField compact label="Self Directed Hours" value={hours(recon.data.totalSelfDirectedHours)} />
                <DetailField compact label="Efficiency Rate" value={`${Number(recon.data.efficiencyRate ?? 0).toFixed(1)}%`} />
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
        </DetailSection>
        <DetailSection title="Timetabled Units Summary" data-testid="timetabled-units">
          {!timetabled.data?.length ? (
            <Text c="dimmed">No units timetabled yet.</Text>
          ) : (
            <DataTable
              rows={timetabled.data}
              rowKey={(u) => u.unitCode}
              columns={[
                {
                  label: "Unit",
                  cell: (u) => <CodeOverName code={u.unitCode} name={u.unitName} />,
                },
                { label: "Nominal", cell: (u) => u.nominalHours },
                { label: "Planned", cell: (u) => (u.plannedHours === null || u.plannedHours === undefined ? "-" : hours(u.plannedHours)) },
                {
                  label: "Timetabled",
                  cell: (u) => {
                    const { target, pct } = progressOf(u);
                    const variance = target ? Math.abs(u.timetabledHours - target) / target > 0.1 : false;
                    return (
                      <>
                        {hours(u.timetabledHours)}{" "}
                        {variance ? (
                          <Tag size="xs" color="orange" variant="light" title={`${Math.round(pct)}% of the ${hours(target)} hours planned`}>
                            {pct >= 100 ? "+" : ""}
                            {Math.round(pct - 100)}%
                          </Tag>
                        ) : null}
                      </>
                    );
                  },
                },
                {
                  label: "Progress",
                  td: { w: 120 },
                  cell: (u) => {
                    const { pct } = progressOf(u);
                    return <Progress value={Math.min(100, pct)} aria-label={`${u.unitCode} timetabled ${Math.round(pct)}%`} />;
                  },
                },
              ]}
            />
          )}
        </DetailSection>
      </SimpleGrid>
      <DetailSection
        title="Study Plans"
        actions={
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAssignOpen(true)}>
            Assign Study Plan
          </Button>
        }
      >
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
                    <DeleteAction label={`Remove study plan ${link.studyPlan.name}`} onClick={() => confirmRemove(link.studyPlanId, link.studyPlan.name)} />
                  </Group>
                </Card>
              );
            })}
          </Stack>
        )}
      </DetailSection>
      <HistoryPanel id={id} />
      <BlockGroupFormModal opened={editOpen} onClose={() => setEditOpen(false)} group={group} />
      <AssignPlanModal groupId={id} opened={assignOpen} onClose={() => setAssignOpen(false)} assignedIds={(links.data ?? []).map((l) => l.studyPlanId)} />
      <ScheduleModal group={scheduleOpen ? group : null} onClose={() => setScheduleOpen(false)} />
    </>
  );
}
