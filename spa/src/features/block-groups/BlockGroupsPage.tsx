import { ActionIcon, Button, Card, Chip, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { modals } from "@mantine/modals";
import { IconCalendarPlus, IconEdit, IconEye, IconPlus, IconTrash } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { Link, useLocation } from "react-router";
import { formatDate, hours } from "../../components/Dates";
import { LivePresence } from "../../components/LivePresence";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "../../components/States";
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

/** Block groups list (/block-groups): delivery.md §2. */
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
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<BlockGroup | null>(null);
  const [scheduling, setScheduling] = useState<BlockGroup | null>(null);

  const open = (g: BlockGroup | null) => {
    setEditing(g);
    setFormOpen(true);
  };
  const confirmDelete = (g: BlockGroup) =>
    modals.openConfirmModal({
      title: "Delete Block Group",
      children: (
        <Text size="sm">Are you sure you want to delete the block group {g.code}? Its timetable sessions are deleted too. This action cannot be undone.</Text>
      ),
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(g.id, {
          onSuccess: () => notifySuccess("Block group deleted successfully"),
          onError: () => notifyError("Error", "Failed to delete block group"),
        }),
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
            <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
              Add Block Group
            </Button>
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
      {isLoading ? (
        <CardGridSkeleton count={6} />
      ) : isError ? (
        <ErrorState message="Failed to load block groups. Please try again." />
      ) : !data?.length ? (
        <EmptyState title="No block groups found" description="Change the filters or add a block group." />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
          {data.map((g) => (
            <BlockGroupCard key={g.id} group={g} onEdit={() => open(g)} onDelete={() => confirmDelete(g)} onSchedule={() => setScheduling(g)} />
          ))}
        </SimpleGrid>
      )}
      <BlockGroupFormModal opened={formOpen} onClose={() => setFormOpen(false)} group={editing} />
      <ScheduleModal group={scheduling} onClose={() => setScheduling(null)} />
    </>
  );
}

function BlockGroupCard({ group, onEdit, onDelete, onSchedule }: { group: BlockGroup; onEdit: () => void; onDelete: () => void; onSchedule: () => void }) {
  const schedulable = canSchedule(group.status);
  return (
    <Card withBorder padding="lg" data-testid="block-group-card">
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {group.name}
            </Title>
            <Text size="sm" c="dimmed" ff="monospace">
              {group.code}
            </Text>
          </Stack>
          <Tag color={statusColor(group.status)}>{statusLabel(group.status)}</Tag>
        </Group>
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
        <Group justify="flex-end" gap="xs" mt="auto">
          <Button component={Link} to={`/block-groups/${group.id}`} size="xs" variant="light" leftSection={<IconEye size={14} />}>
            View
          </Button>
          <Button size="xs" variant="light" leftSection={<IconEdit size={14} />} onClick={onEdit}>
            Edit
          </Button>
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
          <ActionIcon variant="light" color="red" size="lg" aria-label={`Delete ${group.code}`} onClick={onDelete}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      </Stack>
    </Card>
  );
}
