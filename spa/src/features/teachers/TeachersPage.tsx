import { Button, Group, SimpleGrid, Switch, Text } from "@mantine/core";
import { IconEye, IconUserOff } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { AddButton, CardEditButton, confirmAndMutate, ListStates, RecordCard, useEditDialog } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { AvailabilityWorkbook } from "./components/AvailabilityWorkbook";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import { ActiveTag, Tag } from "@/components/Tag";
import { AVAILABILITY_LABELS, EMPLOYMENT_LABELS, useDeactivateTeacher, useTeachers, type Teacher } from "./api/teachers";
import { TeacherFormModal } from "./components/TeacherFormModal";

/** Teachers (/teachers): docs/behaviour/teachers.md. */
export default function TeachersPage() {
  const [showInactive, setShowInactive] = useState(false);
  const { data, isLoading, isError } = useTeachers(showInactive);
  const deactivate = useDeactivateTeacher();
  const dialog = useEditDialog<Teacher>();
  const sorted = [...(data ?? [])]
    .filter((t) => showInactive || t.isActive)
    .sort((a, b) => a.firstName.localeCompare(b.firstName) || a.lastName.localeCompare(b.lastName));
  const confirmDeactivate = (t: Teacher) =>
    confirmAndMutate(deactivate, t, {
      title: "Deactivate Teacher",
      message: `Deactivate ${t.firstName} ${t.lastName}? They will not be available for new assignments; their existing data is kept.`,
      confirm: "Deactivate",
      done: "Teacher deactivated successfully",
      failed: ["Error", "Failed to deactivate teacher"],
    });

  return (
    <>
      <PageHeader
        title="Teachers"
        subtitle="Manage teaching staff, their qualifications and availability"
        actions={
          <>
            <AvailabilityWorkbook />
            <AddButton onClick={() => dialog.open(null)}>Add Teacher</AddButton>
          </>
        }
      />
      <Switch label="Show inactive teachers" checked={showInactive} onChange={(e) => setShowInactive(e.currentTarget.checked)} mb="md" />
      <ListStates
        rows={sorted}
        loading={isLoading && <CardGridSkeleton count={6} />}
        failed={isError && <ErrorState message="Failed to load teachers. Please try again." />}
        empty={<EmptyState title="No teachers found" description="Add a teacher to start allocating sessions." />}
      >
        {(teachers) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {teachers.map((t) => (
              <RecordCard
                key={t.id}
                testId="teacher-card"
                title={{
                  name: `${t.firstName} ${t.lastName}`,
                  subtitle: `${t.jobTitle || "Teacher"} · ${t.employeeId}`,
                  tag: <ActiveTag active={t.isActive} />,
                }}
                actions={
                  <>
                    <Button component={Link} to={`/teachers/${t.id}`} size="xs" variant="light" leftSection={<IconEye size={14} />}>
                      View Details
                    </Button>
                    <CardEditButton onClick={() => dialog.open(t)} />
                    {t.isActive ? (
                      <Button size="xs" variant="light" color="red" leftSection={<IconUserOff size={14} />} onClick={() => confirmDeactivate(t)}>
                        Deactivate
                      </Button>
                    ) : null}
                  </>
                }
              >
                <Text size="sm">{t.email}</Text>
                <Group gap={6}>
                  <Tag color="blue">{EMPLOYMENT_LABELS[t.employmentType] ?? t.employmentType}</Tag>
                  <Tag color="violet">{AVAILABILITY_LABELS[t.availability] ?? t.availability}</Tag>
                  <Tag color="gray">Max {t.maxWeeklyHours} h/week</Tag>
                  {t.unitCount !== undefined ? <Tag color="teal">{t.unitCount} units</Tag> : null}
                </Group>
              </RecordCard>
            ))}
          </SimpleGrid>
        )}
      </ListStates>
      <TeacherFormModal opened={dialog.opened} onClose={dialog.close} teacher={dialog.editing} />
    </>
  );
}
