import { Card, SimpleGrid, Stack } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { useState } from "react";
import { useParams } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { DetailEditButton, DetailField, detailPageFallback } from "../../components/DetailPage";
import { useUnit } from "./api/units";
import { UnitFormModal } from "./components/UnitFormModal";
import { HistoryPanel } from "../history/HistoryPanel";

/** Unit detail (/units/:id): delivery.md §2 Units. */
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
      <Card withBorder padding="lg">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <DetailField label="Code" value={unit.code} preWrap />
            <DetailField label="Nominal Hours" value={String(unit.nominalHours)} preWrap />
            <DetailField
              label="Type"
              value={
                <Tag color={unit.isCore ? "indigo" : "grape"} variant="light">
                  {unit.isCore ? "Core Unit" : "Elective Unit"}
                </Tag>
              }
            />
          </SimpleGrid>
          <DetailField label="Description" value={unit.description || "No description"} preWrap />
          <DetailField label="Prerequisites" value={unit.prerequisites || "None"} preWrap />
        </Stack>
      </Card>
      <UnitFormModal opened={opened} onClose={() => setOpened(false)} unit={unit} />
      <HistoryPanel id={id} />
    </>
  );
}
