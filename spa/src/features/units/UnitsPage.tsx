import { ActionIcon, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { modals } from "@mantine/modals";
import { IconEdit, IconPlus, IconSearch, IconTrash } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useCourses } from "../courses/api/courses";
import { Link } from "react-router";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "../../components/States";
import { useDeleteUnit, useUnits, type Unit } from "./api/units";
import { UnitFormModal } from "./components/UnitFormModal";

/** Units of competency (/units): delivery.md §2 Units. */
export default function UnitsPage() {
  // Search by code or name (as you type, on the loaded list) and filter by qualification (issue 18).
  const [search, setSearch] = useState("");
  const [courseId, setCourseId] = useState<string | null>(null);
  const all = useUnits();
  const inCourse = useUnits(courseId);
  const courses = useCourses();
  const { isLoading, isError } = all;
  const data = useMemo(() => {
    const term = search.trim().toLowerCase();
    const rows = (courseId ? inCourse.data : all.data) ?? [];
    return term ? rows.filter((u) => u.code.toLowerCase().includes(term) || u.name.toLowerCase().includes(term)) : rows;
  }, [search, courseId, all.data, inCourse.data]);
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
      ) : !all.data?.length ? (
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
        <Stack>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Search units"
              placeholder="Code or name"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: "100%", sm: 320 }}
            />
            <Select
              label="Qualification"
              placeholder="All qualifications"
              clearable
              searchable
              data={(courses.data ?? []).map((c) => ({ value: c.id, label: `${c.code} - ${c.name}` }))}
              value={courseId}
              onChange={setCourseId}
              w={{ base: "100%", sm: 360 }}
            />
            <Text size="sm" c="dimmed" data-testid="unit-count" aria-live="polite">
              {courseId && inCourse.isLoading ? "Loading..." : `${data.length} of ${all.data.length} units`}
            </Text>
          </Group>
          {!data.length && !(courseId && inCourse.isLoading) ? <Text c="dimmed">No units match the search.</Text> : null}
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
        </Stack>
      )}
      <UnitFormModal opened={opened} onClose={() => setOpened(false)} unit={editing} />
    </>
  );
}
