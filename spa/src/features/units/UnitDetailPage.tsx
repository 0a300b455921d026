import { Tag } from "@/components/Tag";
import { useState } from "react";
import { useParams } from "react-router";
import { PageHeader } from "@/components/PageHeader";
import { DetailEditButton, DetailOverview, detailPageFallback } from "@/components/DetailPage";
import { useUnit } from "./api/units";
import { UnitFormModal } from "./components/UnitFormModal";
import { HistoryPanel } from "@/components/history/HistoryPanel";

/** Unit detail (/units/:id): docs/behaviour/units-and-courses.md §2. */
export default function UnitDetailPage() {
  const { id = "" } = useParams();
  const query = useUnit(id);
  const unit = query.data;
  const [opened, setOpened] = useState(false);
  const fallback = detailPageFallback(query, "Failed to load units. Please try again.", { to: "/units", label: "Back to Units" });
  if (fallback || !unit) return fallback;
  return (
    <>
      <PageHeader title={`Unit: ${unit.name}`} subtitle={unit.code} actions={<DetailEditButton onClick={() => setOpened(true)} />} />
      <DetailOverview
        fields={{
          Code: unit.code,
          "Nominal Hours": String(unit.nominalHours),
          Type: (
            <Tag color={unit.isCore ? "indigo" : "grape"} variant="light">
              {unit.isCore ? "Core Unit" : "Elective Unit"}
            </Tag>
          ),
        }}
        wide={{ Description: unit.description || "No description", Prerequisites: unit.prerequisites || "None" }}
        preWrap
      />
      <UnitFormModal opened={opened} onClose={() => setOpened(false)} unit={unit} />
      <HistoryPanel id={id} />
    </>
  );
}
