import { ActionIcon, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { modals } from "@mantine/modals";
import { IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "../../components/States";
import { useDeleteUnit, useUnits, type Unit } from "./api/units";
import { UnitFormModal } from "./components/UnitFormModal";

/** Units of competency (/units): delivery.md §2 Units. */
export default function UnitsPage() {
  const { data, isLoading, isError } = useUnits();
  const [editing, setEditing] = useState<Unit | null>(null);
  const [opened, setOpened] = useState(false);
  const remove = useDeleteUnit();
  const open = (unit: Unit | null) => {
    setEditing(unit);
    setOpened(true);
  };
  const confirmDelete = (unit: Unit) =>
    modals.openConfirmModal({
      title: "Delete Unit of Competency",
      children: <Text size="sm">Are you sure you want to delete the unit {unit.code}? This action cannot be undone.</Text>,
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(unit.id, {
          onSuccess: () => notifySuccess("Unit deleted successfully"),
          onError: () => notifyError("Error", "Failed to delete unit of competency."),
        }),
    });

  return (
    <>
      <PageHeader
        title="Units of Competency"
        subtitle="Manage individual competency units"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            Add Unit
          </Button>
        }
      />
      {isLoading ? (
        <CardGridSkeleton count={6} />
      ) : isError ? (
        <ErrorState message="Failed to load units. Please try again." />
      ) : !data?.length ? (
        <EmptyState
          title="No units found"
          description="Get started by creating your first unit of competency."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
              Create Unit
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.map((unit) => (
            <Card key={unit.id} withBorder padding="lg" data-testid="unit-card">
              <Stack gap="xs" h="100%">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} size="h4">
                      <Link to={`/units/${unit.id}`} style={{ color: "inherit" }}>
                        {unit.name}
                      </Link>
                    </Title>
                    <Text size="sm" c="dimmed" ff="monospace">
                      {unit.code}
                    </Text>
                  </Stack>
                  <Tag color={unit.isCore ? "indigo" : "grape"} variant="light">
                    {unit.isCore ? "Core Unit" : "Elective Unit"}
                  </Tag>
                </Group>
                <Text size="sm">
                  <b>{unit.nominalHours}</b> nominal hours
                </Text>
                {unit.description ? (
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {unit.description}
                  </Text>
                ) : null}
                <Group justify="flex-end" mt="auto" gap="xs">
                  <Button variant="light" size="xs" leftSection={<IconEdit size={14} />} onClick={() => open(unit)}>
                    Edit
                  </Button>
                  <ActionIcon variant="light" color="red" aria-label={`Delete unit ${unit.code}`} onClick={() => confirmDelete(unit)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <UnitFormModal opened={opened} onClose={() => setOpened(false)} unit={editing} />
    </>
  );
}
