import { Group, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import { Tag } from "@/components/Tag";
import { useMemo, useState } from "react";
import { useCourses } from "@/lib/entities/courses";
import { AddButton, CardEditButton, confirmAndMutate, DeleteAction, ListSearch, ListStates, RecordCard, useEditDialog } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import { useDeleteUnit, useUnits, type Unit } from "./api/units";
import { UnitFormModal } from "./components/UnitFormModal";

/** Units of competency (/units): docs/behaviour/units-and-courses.md §2. */
export default function UnitsPage() {
  // Search by code or name (as you type, on the loaded list) and filter by qualification (ADR 0018).
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
  const dialog = useEditDialog<Unit>();
  const remove = useDeleteUnit();
  const confirmDelete = (unit: Unit) =>
    confirmAndMutate(remove, unit.id, {
      title: "Delete Unit of Competency",
      message: `Are you sure you want to delete the unit ${unit.code}? You can undo it from the message that follows or from History.`,
      done: "Unit deleted successfully",
      failed: ["Error", "Failed to delete unit of competency."],
    });

  return (
    <>
      <PageHeader
        title="Units of Competency"
        subtitle="Manage individual competency units"
        actions={<AddButton onClick={() => dialog.open(null)}>Add Unit</AddButton>}
      />
      <ListStates
        rows={all.data}
        loading={isLoading && <CardGridSkeleton count={6} />}
        failed={isError && <ErrorState message="Failed to load units. Please try again." />}
        empty={
          <EmptyState
            title="No units found"
            description="Get started by creating your first unit of competency."
            action={<AddButton onClick={() => dialog.open(null)}>Create Unit</AddButton>}
          />
        }
      >
        {(allUnits) => (
          <Stack>
            <Group align="flex-end" wrap="wrap">
              <ListSearch label="Search units" placeholder="Code or name" value={search} onChange={setSearch} />
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
                {courseId && inCourse.isLoading ? "Loading..." : `${data.length} of ${allUnits.length} units`}
              </Text>
            </Group>
            {!data.length && !(courseId && inCourse.isLoading) ? <Text c="dimmed">No units match the search.</Text> : null}
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {data.map((unit) => (
                <RecordCard
                  key={unit.id}
                  testId="unit-card"
                  title={{
                    name: unit.name,
                    to: `/units/${unit.id}`,
                    subtitle: unit.code,
                    monospace: true,
                    tag: (
                      <Tag color={unit.isCore ? "indigo" : "grape"} variant="light">
                        {unit.isCore ? "Core Unit" : "Elective Unit"}
                      </Tag>
                    ),
                  }}
                  actions={
                    <>
                      <CardEditButton onClick={() => dialog.open(unit)} />
                      <DeleteAction label={`Delete unit ${unit.code}`} onClick={() => confirmDelete(unit)} />
                    </>
                  }
                >
                  <Text size="sm">
                    <b>{unit.nominalHours}</b> nominal hours
                  </Text>
                  {unit.description ? (
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {unit.description}
                    </Text>
                  ) : null}
                </RecordCard>
              ))}
            </SimpleGrid>
          </Stack>
        )}
      </ListStates>
      <UnitFormModal opened={dialog.opened} onClose={dialog.close} unit={dialog.editing} />
    </>
  );
}
