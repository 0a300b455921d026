import { ActionIcon, Button, Chip, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from "@mantine/core";
import { Tag } from "@/components/Tag";
import { IconCalendarPlus, IconEye } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { Link, useLocation } from "react-router";
import { formatDate, hours } from "@/components/Dates";
import { LivePresence } from "@/components/LivePresence";
import { AddButton, CardEditButton, confirmAndMutate, DeleteAction, ListStates, RecordCard, useEditDialog } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import {
  DELIVERY_LABELS,
  STATUSES,
  statusColor,
  statusLabel,
  STUDY_LABELS,
  useBlockGroups,
  useCourseOptions,
  useDeleteBlockGroup,
  type BlockGroup,
} from "./api/blockGroups";
import { BlockGroupFormModal } from "./components/BlockGroupFormModal";
import { canSchedule, cannotScheduleMessage, ScheduleModal } from "./components/ScheduleModal";

type StudyLoad = "full_time" | "part_time" | "both" | null;

/** Block groups list (/block-groups): docs/behaviour/block-groups.md. */
export default function BlockGroupsPage() {
  const location = useLocation();
  const [status, setStatus] = useState<string[]>(["active"]);
  const [courseCodes, setCourseCodes] = useState<string[]>([]);
  const [studyLoad, setStudyLoad] = useState<StudyLoad>(null);
  const filters = useMemo(
    () => ({
      status,
      course: courseCodes,
      studyMode: studyLoad === "both" ? ["full_time", "part_time"] : studyLoad ? [studyLoad] : [],
    }),
    [status, courseCodes, studyLoad],
  );
  const { data, isLoading, isError } = useBlockGroups(filters);
  const courses = useCourseOptions();
  const remove = useDeleteBlockGroup();
  const dialog = useEditDialog<BlockGroup>();
  const [scheduling, setScheduling] = useState<BlockGroup | null>(null);

  const confirmDelete = (g: BlockGroup) =>
    confirmAndMutate(remove, g.id, {
      title: "Delete Block Group",
      message: `Are you sure you want to delete the block group ${g.code}? Its timetable sessions are deleted too. You can undo it from the message that follows or from History.`,
      done: "Block group deleted successfully",
      failed: ["Error", "Failed to delete block group"],
    });
  const codes = [...new Set((courses.data ?? []).map((c) => c.code ?? "").filter(Boolean))].sort();

  return (
    <>
      <PageHeader
        title="Block Groups"
        subtitle="Manage student cohorts, their study plans and schedules"
        actions={
          <>
            <LivePresence path={location.pathname} />
            <AddButton onClick={() => dialog.open(null)}>Add Block Group</AddButton>
          </>
        }
      />
      <Paper withBorder p="md" mb="md">
        <Stack gap="sm">
          <Group gap="xs">
            <Text fw={600} size="sm" w={90}>
              Status
            </Text>
            <Chip.Group multiple value={status} onChange={setStatus}>
              {STATUSES.map((s) => (
                <Chip color="indigo.9" key={s.value} value={s.value} size="sm">
                  {s.label}
                </Chip>
              ))}
            </Chip.Group>
            <Button size="compact-sm" variant="subtle" onClick={() => setStatus(STATUSES.map((s) => s.value))}>
              Select All
            </Button>
            <Button size="compact-sm" variant="subtle" onClick={() => setStatus([])}>
              Clear All
            </Button>
          </Group>
          <Group gap="xs">
            <Text fw={600} size="sm" w={90}>
              Course
            </Text>
            <Chip color="indigo.9" size="sm" checked={courseCodes.length === 0} onChange={() => setCourseCodes([])}>
              All Courses
            </Chip>
            <Chip.Group multiple value={courseCodes} onChange={setCourseCodes}>
              {codes.map((code) => (
                <Chip color="indigo.9" key={code} value={code} size="sm">
                  {code}
                </Chip>
              ))}
            </Chip.Group>
            <Button size="compact-sm" variant="subtle" onClick={() => setCourseCodes([])}>
              Clear
            </Button>
          </Group>
          <Group gap="xs">
            <Text fw={600} size="sm" w={90}>
              Study load
            </Text>
            <Chip.Group value={studyLoad ?? ""} onChange={(v) => setStudyLoad((v || null) as StudyLoad)}>
              <Chip color="indigo.9" value="full_time" size="sm">
                Full Time
              </Chip>
              <Chip color="indigo.9" value="part_time" size="sm">
                Part Time
              </Chip>
              <Chip color="indigo.9" value="both" size="sm">
                Both
              </Chip>
            </Chip.Group>
            <Button size="compact-sm" variant="subtle" onClick={() => setStudyLoad(null)}>
              Clear
            </Button>
          </Group>
        </Stack>
      </Paper>
      <ListStates
        rows={data}
        loading={isLoading && <CardGridSkeleton count={6} />}
        failed={isError && <ErrorState message="Failed to load block groups. Please try again." />}
        empty={<EmptyState title="No block groups found" description="Change the filters or add a block group." />}
      >
        {(groups) => (
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
            {groups.map((g) => (
              <BlockGroupCard key={g.id} group={g} onEdit={() => dialog.open(g)} onDelete={() => confirmDelete(g)} onSchedule={() => setScheduling(g)} />
            ))}
          </SimpleGrid>
        )}
      </ListStates>
      <BlockGroupFormModal opened={dialog.opened} onClose={dialog.close} group={dialog.editing} />
      <ScheduleModal group={scheduling} onClose={() => setScheduling(null)} />
    </>
  );
}

function BlockGroupCard({ group, onEdit, onDelete, onSchedule }: { group: BlockGroup; onEdit: () => void; onDelete: () => void; onSchedule: () => void }) {
  const schedulable = canSchedule(group.status);
  return (
    <RecordCard
      testId="block-group-card"
      title={{ name: group.name, subtitle: group.code, monospace: true, tag: <Tag color={statusColor(group.status)}>{statusLabel(group.status)}</Tag> }}
      actions={
        <>
          <Button component={Link} to={`/block-groups/${group.id}`} size="xs" variant="light" leftSection={<IconEye size={14} />}>
            View
          </Button>
          <CardEditButton onClick={onEdit} />
          <Tooltip label={schedulable ? "Schedule" : cannotScheduleMessage(group.status)} multiline w={260}>
            <ActionIcon
              variant="light"
              color="teal"
              size="lg"
              aria-label={`Schedule ${group.code}`}
              onClick={schedulable ? onSchedule : undefined}
              data-disabled={!schedulable || undefined}
              aria-disabled={!schedulable || undefined}
            >
              <IconCalendarPlus size={16} />
            </ActionIcon>
          </Tooltip>
          <DeleteAction size="lg" label={`Delete ${group.code}`} onClick={onDelete} />
        </>
      }
    >
      <Group gap={6}>
        <Tag variant="light" color="cyan">
          {DELIVERY_LABELS[group.deliveryMode] ?? group.deliveryMode}
        </Tag>
        <Tag variant="light" color="grape">
          {STUDY_LABELS[group.studyMode] ?? group.studyMode}
        </Tag>
        <Tag variant="outline" color="gray">
          {group.timetableCount} sessions
        </Tag>
      </Group>
      <Text size="sm">
        <Text span c="dimmed">
          Study plans:{" "}
        </Text>
        {group.studyPlanNames?.length ? group.studyPlanNames.join(", ") : "None assigned"}
      </Text>
      <SimpleGrid cols={2} spacing={4}>
        <Text size="sm">Cohort: {group.cohortSize}</Text>
        <Text size="sm">
          {hours(group.sessionDuration)}h x {group.sessionsPerDay}/day
        </Text>
        <Text size="sm">Start: {formatDate(group.startDate)}</Text>
        <Text size="sm">End: {formatDate(group.endDate, "TBD")}</Text>
      </SimpleGrid>
    </RecordCard>
  );
}
