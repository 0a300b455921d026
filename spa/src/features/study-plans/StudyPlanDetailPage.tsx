import { Button, Card, SimpleGrid, Stack, Text } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { IconEdit, IconList } from "@tabler/icons-react";
import { useState } from "react";
import { useParams } from "react-router";
import { formatDate } from "../../components/Dates";
import { PageHeader } from "../../components/PageHeader";
import { FullPageLoader, RecordLoadError } from "../../components/States";
import { useStudyPlan } from "./api/studyPlans";
import { ManageUnitsModal } from "./components/ManageUnitsModal";
import { StudyPlanFormModal } from "./components/StudyPlanFormModal";
import { HistoryPanel } from "../history/HistoryPanel";
import { blockGroupColumns, CodeLink, RelatedRecords } from "../../components/RelatedRecords";
import { hours } from "../../components/Dates";
import { useBlockGroups } from "../block-groups/api/blockGroups";
import { sumActual, usePlanUnits } from "./api/planUnits";

/** Study plan detail (/study-plans/:id): delivery.md §2 Study plans. */
export default function StudyPlanDetailPage() {
  const { id = "" } = useParams();
  const { data: plan, isLoading, isError, error, refetch } = useStudyPlan(id);
  const [editOpen, setEditOpen] = useState(false);
  const [manageOpen, setManageOpen] = useState(false);
  // Its units in delivery order and the block groups it is assigned to (issue 18).
  const units = usePlanUnits(id);
  const groups = useBlockGroups({ studyPlan: [id] });
  if (isLoading) return <FullPageLoader />;
  if (isError || !plan)
    return (
      <RecordLoadError
        error={error}
        message="Failed to load study plans. Please try again."
        onRetry={() => void refetch()}
        back={{ to: "/study-plans", label: "Back to Study Plans" }}
      />
    );
  return (
    <>
      <PageHeader
        title={`Study Plan: ${plan.name}`}
        subtitle="Delivery sequence and hours"
        actions={
          <>
            <Button variant="light" leftSection={<IconList size={16} />} onClick={() => setManageOpen(true)}>
              Manage Units
            </Button>
            <Button leftSection={<IconEdit size={16} />} onClick={() => setEditOpen(true)}>
              Edit
            </Button>
          </>
        }
      />
      <Card withBorder padding="lg">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                Name
              </Text>
              <Text>{plan.name}</Text>
            </Stack>
            <Stack gap={0} align="flex-start">
              <Text size="sm" c="dimmed">
                Status
              </Text>
              <Tag color={plan.isActive ? "green" : "gray"} variant="light">
                {plan.isActive ? "Active" : "Inactive"}
              </Tag>
            </Stack>
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                Created
              </Text>
              <Text>{formatDate(plan.createdAt?.slice(0, 10), "N/A")}</Text>
            </Stack>
          </SimpleGrid>
          <Stack gap={0}>
            <Text size="sm" c="dimmed">
              Description
            </Text>
            <Text>{plan.description || "No description"}</Text>
          </Stack>
        </Stack>
      </Card>
      <SimpleGrid cols={{ base: 1, lg: 2 }} mt="md">
        <RelatedRecords
          title="Units of Competency"
          testId="plan-units"
          rows={units.data ? [...units.data].sort((a, b) => a.sequenceOrder - b.sequenceOrder) : undefined}
          loading={units.isLoading}
          empty="No units yet: use Manage Units to add them."
          columns={[
            { label: "#", cell: (u) => u.sequenceOrder },
            { label: "Code", cell: (u) => <CodeLink to={`/units/${u.unitId}`} code={u.unit.code} /> },
            { label: "Name", cell: (u) => u.unit.name },
            { label: "Nominal Hours", cell: (u) => u.unit.nominalHours },
            { label: "Actual Hours", cell: (u) => hours(sumActual(u)) },
          ]}
        />
        <RelatedRecords
          title="Block Groups"
          testId="plan-block-groups"
          rows={groups.data}
          loading={groups.isLoading}
          empty="Not assigned to a block group yet."
          columns={blockGroupColumns((d) => formatDate(d, "-"))}
        />
      </SimpleGrid>
      <StudyPlanFormModal opened={editOpen} onClose={() => setEditOpen(false)} plan={plan} />
      <ManageUnitsModal plan={manageOpen ? plan : null} onClose={() => setManageOpen(false)} />
      <HistoryPanel id={id} />
    </>
  );
}
