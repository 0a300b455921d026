import { ActionIcon, Button, Card, Group, Modal, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import { Notice } from "@/components/Notice";
import { Tag } from "@/components/Tag";
import { confirmAndMutate } from "@/components/ListPage";
import { IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { hours } from "@/components/Dates";
import { ACTUAL_FIELDS, TOLERANCE, usePlanUnits, useRemovePlanUnit, type PlanUnit } from "../api/planUnits";
import { efficiencyColor, efficiencyOf, type StudyPlan } from "../api/studyPlans";
import { PlanUnitForm } from "./PlanUnitForm";

/** "Manage Units - plan name" dialog (docs/behaviour/units-and-courses.md §2). */
export function ManageUnitsModal({ plan, onClose }: { plan: StudyPlan | null; onClose: () => void }) {
  const planId = plan?.id ?? "";
  const { data, isLoading, isError } = usePlanUnits(planId, !!plan);
  const remove = useRemovePlanUnit(planId);
  const [editing, setEditing] = useState<PlanUnit | "new" | null>(null);
  const units = [...(data ?? [])].sort((a, b) => a.sequenceOrder - b.sequenceOrder);
  const totalActual = units.reduce((s, u) => s + (u.totalActualHours ?? 0), 0);
  const nominal = plan?.totalNominalHours || units.reduce((s, u) => s + u.unit.nominalHours, 0);
  const efficiency = efficiencyOf(totalActual, nominal);

  const close = () => {
    setEditing(null);
    onClose();
  };
  const confirmRemove = (pu: PlanUnit) =>
    confirmAndMutate(remove, pu.id, {
      title: "Remove Unit",
      message: `Remove ${pu.unit.code} from this study plan?`,
      confirm: "Remove",
      done: "Unit removed from study plan",
      failed: ["Unit Assignment Error", "Failed to remove unit from study plan."],
    });

  return (
    <Modal opened={!!plan} onClose={close} title={`Manage Units - ${plan?.name ?? ""}`} size="xl">
      {editing ? (
        <PlanUnitForm planId={planId} planUnit={editing === "new" ? null : editing} existing={units} onDone={() => setEditing(null)} />
      ) : (
        <Stack>
          <Group justify="space-between">
            <Group gap="xs">
              <Tag size="lg" variant="light">
                Total Actual Hours: {hours(totalActual)}
              </Tag>
              <Tag size="lg" variant="light" color="gray">
                {units.length} unit{units.length === 1 ? "" : "s"}
              </Tag>
              <Tag size="lg" variant="light" color={efficiencyColor(efficiency)}>
                Efficiency Rate: {efficiency.toFixed(1)}%
              </Tag>
            </Group>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing("new")}>
              {units.length ? "Add Unit" : "Add First Unit"}
            </Button>
          </Group>
          {isLoading ? (
            <Stack data-testid="loading-skeleton">
              {[0, 1, 2].map((i) => (
                <Card key={i} withBorder>
                  <Skeleton height={16} width="50%" mb="sm" />
                  <Skeleton height={12} />
                </Card>
              ))}
            </Stack>
          ) : isError ? (
            <Notice color="red">Failed to fetch study plan units.</Notice>
          ) : !units.length ? (
            <Text c="dimmed" ta="center" py="lg">
              No units in this study plan yet.
            </Text>
          ) : (
            units.map((pu, index) => <PlanUnitRow key={pu.id} index={index} pu={pu} onEdit={() => setEditing(pu)} onRemove={() => confirmRemove(pu)} />)
          )}
        </Stack>
      )}
    </Modal>
  );
}

function PlanUnitRow({ pu, index, onEdit, onRemove }: { pu: PlanUnit; index: number; onEdit: () => void; onRemove: () => void }) {
  const planned = (pu.totalActualHours ?? 0) + (pu.selfDirectedHours ?? 0);
  const mismatch = Math.abs(planned - pu.unit.nominalHours) > TOLERANCE;
  return (
    <Card withBorder padding="md" data-testid="plan-unit-row">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Tag circle size="lg">
              {index + 1}
            </Tag>
            <Tag variant="outline">Year {pu.yearLevel}</Tag>
            <Text fw={600}>
              {pu.unit.code} - {pu.unit.name}
            </Text>
            {pu.isCluster && pu.clusterGroup ? (
              <Tag color="violet" variant="light">
                Cluster: {pu.clusterGroup}
              </Tag>
            ) : null}
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="light" aria-label={`Edit ${pu.unit.code}`} onClick={onEdit}>
              <IconEdit size={16} />
            </ActionIcon>
            <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} />} onClick={onRemove} aria-label={`Remove ${pu.unit.code}`}>
              Remove
            </Button>
          </Group>
        </Group>
        <Group gap="xs">
          <Tag variant="light" color="gray">
            Nominal: {pu.unit.nominalHours}h
          </Tag>
          <Tag variant="light" color={pu.unit.isCore ? "indigo" : "grape"}>
            {pu.unit.isCore ? "Core" : "Elective"}
          </Tag>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 6 }}>
          {ACTUAL_FIELDS.map(([key, label]) => (
            <Stat key={key} label={label} value={hours(pu[key])} />
          ))}
          <Stat label="Total Actual" value={hours(pu.totalActualHours)} strong />
          <Stat label="Self Directed" value={hours(pu.selfDirectedHours)} strong />
        </SimpleGrid>
        {mismatch ? (
          <Notice color="orange" variant="light" title="Hour Mismatch" data-testid="hour-mismatch">
            Planned {hours(planned)} hours, but the unit's nominal hours are {pu.unit.nominalHours}.
          </Notice>
        ) : null}
      </Stack>
    </Card>
  );
}

function Stat({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500}>{value}</Text>
    </Stack>
  );
}
