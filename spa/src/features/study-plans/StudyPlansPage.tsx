import { ActionIcon, Button, SimpleGrid, Text, Tooltip } from "@mantine/core";
import { ActiveTag, Tag } from "@/components/Tag";
import { IconCopy, IconList } from "@tabler/icons-react";
import { useState } from "react";
import { hours } from "@/components/Dates";
import { AddButton, confirmAndMutate, DeleteAction, EditAction, ListStates, RecordCard, useEditDialog } from "@/components/ListPage";
import { LabelledFigure } from "@/components/DetailPage";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import { efficiencyColor, efficiencyOf, useDeleteStudyPlan, useStudyPlans, type StudyPlan } from "./api/studyPlans";
import { CloneStudyPlanModal } from "./components/CloneStudyPlanModal";
import { ManageUnitsModal } from "./components/ManageUnitsModal";
import { StudyPlanFormModal } from "./components/StudyPlanFormModal";

/** Study plans (/study-plans): docs/behaviour/study-plans.md. */
export default function StudyPlansPage() {
  const { data, isLoading, isError } = useStudyPlans();
  const dialog = useEditDialog<StudyPlan>();
  const [managing, setManaging] = useState<StudyPlan | null>(null);
  const [cloning, setCloning] = useState<StudyPlan | null>(null);
  const remove = useDeleteStudyPlan();
  const confirmDelete = (plan: StudyPlan) =>
    confirmAndMutate(remove, plan.id, {
      title: "Delete Study Plan",
      message: `Are you sure you want to delete the study plan ${plan.name}? You can undo it from the message that follows or from History.`,
      done: "Study plan deleted successfully",
      failed: ["Study Plan Error", "Failed to delete study plan"],
    });
  // Keep the open dialog's plan fresh as the list refetches.
  const managed = managing ? (data?.find((p) => p.id === managing.id) ?? managing) : null;

  return (
    <>
      <PageHeader
        title="Study Plans"
        subtitle="Manage delivery sequences and unit hours"
        actions={<AddButton onClick={() => dialog.open(null)}>Add Study Plan</AddButton>}
      />
      <ListStates
        rows={data}
        loading={isLoading && <CardGridSkeleton count={6} />}
        failed={isError && <ErrorState message="Failed to load study plans. Please try again." />}
        empty={
          <EmptyState
            title="No study plans found"
            description="Create a study plan to define a delivery sequence."
            action={<AddButton onClick={() => dialog.open(null)}>Create Study Plan</AddButton>}
          />
        }
      >
        {(plans) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {plans.map((plan) => {
              const eff = Math.round(efficiencyOf(plan.totalActualHours ?? 0, plan.totalNominalHours));
              return (
                <RecordCard
                  key={plan.id}
                  testId="study-plan-card"
                  title={{ name: plan.name, to: `/study-plans/${plan.id}`, tag: <ActiveTag active={plan.isActive} variant="light" /> }}
                  actions={
                    <>
                      <Button size="xs" variant="light" leftSection={<IconList size={14} />} onClick={() => setManaging(plan)}>
                        Units
                      </Button>
                      <Tooltip label="Edit">
                        <EditAction label={`Edit ${plan.name}`} onClick={() => dialog.open(plan)} />
                      </Tooltip>
                      <Tooltip label="Clone">
                        <ActionIcon variant="light" aria-label={`Clone ${plan.name}`} onClick={() => setCloning(plan)}>
                          <IconCopy size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <DeleteAction label={`Delete ${plan.name}`} onClick={() => confirmDelete(plan)} />
                      </Tooltip>
                    </>
                  }
                >
                  {plan.description ? (
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {plan.description}
                    </Text>
                  ) : null}
                  <SimpleGrid cols={3}>
                    <LabelledFigure label="Nominal Hours" value={String(plan.totalNominalHours)} />
                    <LabelledFigure label="Actual Hours" value={hours(plan.totalActualHours)} />
                    <LabelledFigure
                      label="Efficiency"
                      value={
                        <Tag color={efficiencyColor(eff)} variant="filled" data-testid="efficiency">
                          {eff}%
                        </Tag>
                      }
                    />
                  </SimpleGrid>
                </RecordCard>
              );
            })}
          </SimpleGrid>
        )}
      </ListStates>
      <StudyPlanFormModal opened={dialog.opened} onClose={dialog.close} plan={dialog.editing} />
      <ManageUnitsModal plan={managed} onClose={() => setManaging(null)} />
      <CloneStudyPlanModal plan={cloning} onClose={() => setCloning(null)} />
    </>
  );
}
