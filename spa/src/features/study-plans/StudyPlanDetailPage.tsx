import { Button, SimpleGrid } from "@mantine/core";
import { ActiveTag } from "@/components/Tag";
import { IconList } from "@tabler/icons-react";
import { useState } from "react";
import { useParams } from "react-router";
import { formatDate } from "@/components/Dates";
import { PageHeader } from "@/components/PageHeader";
import { DetailEditButton, DetailOverview, detailPageFallback } from "@/components/DetailPage";
import { useStudyPlan } from "./api/studyPlans";
import { ManageUnitsModal } from "./components/ManageUnitsModal";
import { StudyPlanFormModal } from "./components/StudyPlanFormModal";
import { HistoryPanel } from "@/components/history/HistoryPanel";
import { CodeLink, RelatedBlockGroups, RelatedRecords } from "@/components/RelatedRecords";
import { hours } from "@/components/Dates";
import { useBlockGroups } from "@/lib/entities/blockGroups";
import { sumActual, usePlanUnits } from "./api/planUnits";

/** Study plan detail (/study-plans/:id): docs/behaviour/study-plans.md. */
export default function StudyPlanDetailPage() {
  const { id = "" } = useParams();
  const query = useStudyPlan(id);
  const plan = query.data;
  const [editOpen, setEditOpen] = useState(false);
  const [manageOpen, setManageOpen] = useState(false);
  // Its units in delivery order and the block groups it is assigned to (ADR 0018).
  const units = usePlanUnits(id);
  const groups = useBlockGroups({ studyPlan: [id] });
  const fallback = detailPageFallback(query, "Failed to load study plans. Please try again.", { to: "/study-plans", label: "Back to Study Plans" });
  if (fallback || !plan) return fallback;
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
            <DetailEditButton onClick={() => setEditOpen(true)} />
          </>
        }
      />
      <DetailOverview
        fields={{
          Name: plan.name,
          Status: <ActiveTag active={plan.isActive} variant="light" />,
          Created: formatDate(plan.createdAt?.slice(0, 10), "N/A"),
        }}
        wide={{ Description: plan.description || "No description" }}
      />
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
        <RelatedBlockGroups testId="plan-block-groups" rows={groups.data} loading={groups.isLoading} empty="Not assigned to a block group yet." />
      </SimpleGrid>
      <StudyPlanFormModal opened={editOpen} onClose={() => setEditOpen(false)} plan={plan} />
      <ManageUnitsModal plan={manageOpen ? plan : null} onClose={() => setManageOpen(false)} />
      <HistoryPanel id={id} />
    </>
  );
}
