import { Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconEdit, IconEye, IconPlus, IconUserOff } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "../../components/States";
import { Tag } from "../../components/Tag";
import { AVAILABILITY_LABELS, EMPLOYMENT_LABELS, useDeactivateTeacher, useTeachers, type Teacher } from "./api/teachers";
import { TeacherFormModal } from "./components/TeacherFormModal";

/** Teachers (/teachers): delivery.md §2 Teachers list. */
export default function TeachersPage() {
  const [showInactive, setShowInactive] = useState(false);
  const { data, isLoading, isError } = useTeachers(showInactive);
  const deactivate = useDeactivateTeacher();
  const [opened, setOpened] = useState(false);
  const [editing, setEditing] = useState<Teacher | null>(null);
  const open = (t: Teacher | null) => {
    setEditing(t);
    setOpened(true);
  };
  const sorted = [...(data ?? [])]
    .filter((t) => showInactive || t.isActive)
    .sort((a, b) => a.firstName.localeCompare(b.firstName) || a.lastName.localeCompare(b.lastName));
  const confirmDeactivate = (t: Teacher) =>
    modals.openConfirmModal({
      title: "Deactivate Teacher",
      children: (
        <Text size="sm">
          Deactivate {t.firstName} {t.lastName}? They will not be available for new assignments; their existing data is kept.
        </Text>
      ),
      labels: { confirm: "Deactivate", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        deactivate.mutate(t, {
          onSuccess: () => notifySuccess("Teacher deactivated successfully"),
          onError: () => notifyError("Error", "Failed to deactivate teacher"),
        }),
    });

  return (
    <>
      <PageHeader
        title="Teachers"
        subtitle="Manage teaching staff, their qualifications and availability"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            Add Teacher
          </Button>
        }
      />
      <Switch label="Show inactive teachers" checked={showInactive} onChange={(e) => setShowInactive(e.currentTarget.checked)} mb="md" />
      {isLoading ? (
        <CardGridSkeleton count={6} />
      ) : isError ? (
        <ErrorState message="Failed to load teachers. Please try again." />
      ) : !sorted.length ? (
        <EmptyState title="No teachers found" description="Add a teacher to start allocating sessions." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {sorted.map((t) => (
            <Card key={t.id} withBorder padding="lg" data-testid="teacher-card">
              <Stack gap="xs" h="100%">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} size="h4">
                      {t.firstName} {t.lastName}
                    </Title>
                    <Text size="sm" c="dimmed">
                      {t.jobTitle || "Teacher"} · {t.employeeId}
                    </Text>
                  </Stack>
                  <Tag color={t.isActive ? "green" : "gray"}>{t.isActive ? "Active" : "Inactive"}</Tag>
                </Group>
                <Text size="sm">{t.email}</Text>
                <Group gap={6}>
                  <Tag color="blue">{EMPLOYMENT_LABELS[t.employmentType] ?? t.employmentType}</Tag>
                  <Tag color="violet">{AVAILABILITY_LABELS[t.availability] ?? t.availability}</Tag>
                  <Tag color="gray">Max {t.maxWeeklyHours} h/week</Tag>
                  {t.unitCount !== undefined ? <Tag color="teal">{t.unitCount} units</Tag> : null}
                </Group>
                <Group justify="flex-end" gap="xs" mt="auto">
                  <Button component={Link} to={`/teachers/${t.id}`} size="xs" variant="light" leftSection={<IconEye size={14} />}>
                    View Details
                  </Button>
                  <Button size="xs" variant="light" leftSection={<IconEdit size={14} />} onClick={() => open(t)}>
                    Edit
                  </Button>
                  {t.isActive ? (
                    <Button size="xs" variant="light" color="red" leftSection={<IconUserOff size={14} />} onClick={() => confirmDeactivate(t)}>
                      Deactivate
                    </Button>
                  ) : null}
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <TeacherFormModal opened={opened} onClose={() => setOpened(false)} teacher={editing} />
    </>
  );
}
