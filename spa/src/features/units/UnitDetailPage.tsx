import { Button, Card, SimpleGrid, Stack, Text } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { IconEdit } from "@tabler/icons-react";
import { useState } from "react";
import { useParams } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { FullPageLoader, RecordLoadError } from "../../components/States";
import { useUnit } from "./api/units";
import { UnitFormModal } from "./components/UnitFormModal";
import { HistoryPanel } from "../history/HistoryPanel";

/** Unit detail (/units/:id): delivery.md §2 Units. */
export default function UnitDetailPage() {
  const { id = "" } = useParams();
  const { data: unit, isLoading, isError, error, refetch } = useUnit(id);
  const [opened, setOpened] = useState(false);
  if (isLoading) return <FullPageLoader />;
  if (isError || !unit)
    return (
      <RecordLoadError
        error={error}
        message="Failed to load units. Please try again."
        onRetry={() => void refetch()}
        back={{ to: "/units", label: "Back to Units" }}
      />
    );
  return (
    <>
      <PageHeader
        title={`Unit: ${unit.name}`}
        subtitle={unit.code}
        actions={
          <Button leftSection={<IconEdit size={16} />} onClick={() => setOpened(true)}>
            Edit
          </Button>
        }
      />
      <Card withBorder padding="lg">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Item label="Code" value={unit.code} />
            <Item label="Nominal Hours" value={String(unit.nominalHours)} />
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                Type
              </Text>
              <Tag color={unit.isCore ? "indigo" : "grape"} variant="light">
                {unit.isCore ? "Core Unit" : "Elective Unit"}
              </Tag>
            </Stack>
          </SimpleGrid>
          <Item label="Description" value={unit.description || "No description"} />
          <Item label="Prerequisites" value={unit.prerequisites || "None"} />
        </Stack>
      </Card>
      <UnitFormModal opened={opened} onClose={() => setOpened(false)} unit={unit} />
      <HistoryPanel id={id} />
    </>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text style={{ whiteSpace: "pre-wrap" }}>{value}</Text>
    </Stack>
  );
}
