import { ActionIcon, Button, Card, Group, SimpleGrid, Stack, Text, Title, Tooltip } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { modals } from "@mantine/modals";
import { IconCopy, IconEdit, IconList, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { hours } from "../../components/Dates";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "../../components/States";
import { efficiencyColor, efficiencyOf, useDeleteStudyPlan, useStudyPlans, type StudyPlan } from "./api/studyPlans";
import { CloneStudyPlanModal } from "./components/CloneStudyPlanModal";
import { ManageUnitsModal } from "./components/ManageUnitsModal";
import { StudyPlanFormModal } from "./components/StudyPlanFormModal";

/** Study plans (/study-plans): delivery.md §2 Study plans. */
export default function StudyPlansPage() {
  const { data, isLoading, isError } = useStudyPlans();
  const [editing, setEditing] = useState<StudyPlan | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [managing, setManaging] = useState<StudyPlan | null>(null);
  const [cloning, setCloning] = useState<StudyPlan | null>(null);
  const remove = useDeleteStudyPlan();
  const open = (plan: StudyPlan | null) => {
    setEditing(plan);
    setFormOpen(true);
  };
  const confirmDelete = (plan: StudyPlan) =>
    modals.openConfirmModal({
      title: "Delete Study Plan",
      children: <Text size="sm">Are you sure you want to delete the study plan {plan.name}? This action cannot be undone.</Text>,
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(plan.id, {
          onSuccess: () => notifySuccess("Study plan deleted successfully"),
          onError: () => notifyError("Study Plan Error", "Failed to delete study plan"),
        }),
    });
  // Keep the open dialog's plan fresh as the list refetches.
  const managed = managing ? (data?.find((p) => p.id === managing.id) ?? managing) : null;

  return (
    <>
      <PageHeader
        title="Study Plans"
        subtitle="Manage delivery sequences and unit hours"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            Add Study Plan
          </Button>
        }
      />
      {isLoading ? (
        <CardGridSkeleton count={6} />
      ) : isError ? (
        <ErrorState message="Failed to load study plans. Please try again." />
      ) : !data?.length ? (
        <EmptyState
          title="No study plans found"
          description="Create a study plan to define a delivery sequence."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
              Create Study Plan
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.map((plan) => {
            const eff = Math.round(efficiencyOf(plan.totalActualHours ?? 0, plan.totalNominalHours));
            return (
              <Card key={plan.id} withBorder padding="lg" data-testid="study-plan-card">
                <Stack gap="xs" h="100%">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Title order={2} size="h4">
                      <Link to={`/study-plans/${plan.id}`} style={{ color: "inherit" }}>
                        {plan.name}
                      </Link>
                    </Title>
                    <Tag color={plan.isActive ? "green" : "gray"} variant="light">
                      {plan.isActive ? "Active" : "Inactive"}
                    </Tag>
                  </Group>
                  {plan.description ? (
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {plan.description}
                    </Text>
                  ) : null}
                  <SimpleGrid cols={3}>
                    <Summary label="Nominal Hours" value={String(plan.totalNominalHours)} />
                    <Summary label="Actual Hours" value={hours(plan.totalActualHours)} />
                    <Stack gap={0}>
                      <Text size="xs" c="dimmed">
                        Efficiency
                      </Text>
                      <Tag color={efficiencyColor(eff)} variant="filled" data-testid="efficiency">
                        {eff}%
                      </Tag>
                    </Stack>
                  </SimpleGrid>
                  <Group justify="flex-end" gap="xs" mt="auto">
                    <Button size="xs" variant="light" leftSection={<IconList size={14} />} onClick={() => setManaging(plan)}>
                      Units
                    </Button>
                    <Tooltip label="Edit">
                      <ActionIcon variant="light" aria-label={`Edit ${plan.name}`} onClick={() => open(plan)}>
                        <IconEdit size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Clone">
                      <ActionIcon variant="light" aria-label={`Clone ${plan.name}`} onClick={() => setCloning(plan)}>
                        <IconCopy size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Delete">
                      <ActionIcon variant="light" color="red" aria-label={`Delete ${plan.name}`} onClick={() => confirmDelete(plan)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      <StudyPlanFormModal opened={formOpen} onClose={() => setFormOpen(false)} plan={editing} />
      <ManageUnitsModal plan={managed} onClose={() => setManaging(null)} />
      <CloneStudyPlanModal plan={cloning} onClose={() => setCloning(null)} />
    </>
  );
}

function Summary({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}
