import { ActionIcon, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { modals } from "@mantine/modals";
import { IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "../../components/States";
import { LEVEL_LABELS, useCourses, useDeleteCourse, type Course } from "./api/courses";
import { CourseFormModal } from "./components/CourseFormModal";

/** Courses (/courses): delivery.md §2 Courses. */
export default function CoursesPage() {
  const { data, isLoading, isError } = useCourses();
  const [editing, setEditing] = useState<Course | null>(null);
  const [opened, setOpened] = useState(false);
  const remove = useDeleteCourse();

  const openCreate = () => {
    setEditing(null);
    setOpened(true);
  };
  const openEdit = (course: Course) => {
    setEditing(course);
    setOpened(true);
  };
  const confirmDelete = (course: Course) =>
    modals.openConfirmModal({
      title: "Delete Course",
      children: <Text size="sm">Are you sure you want to delete the course? This action cannot be undone.</Text>,
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(course.id, {
          onSuccess: () => notifySuccess("Course deleted successfully"),
          onError: () => notifyError("Error", "Failed to delete course."),
        }),
    });

  return (
    <>
      <PageHeader
        title="Courses"
        subtitle="Manage Certificate III, IV, and Diploma courses"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            Add Course
          </Button>
        }
      />
      {isLoading ? (
        <CardGridSkeleton count={6} />
      ) : isError ? (
        <ErrorState message="Failed to load courses. Please try again." />
      ) : !data?.length ? (
        <EmptyState
          title="No courses found"
          description="Get started by creating your first course."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
              Create Course
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.map((course) => (
            <Card key={course.id} withBorder padding="lg" data-testid="course-card">
              <Stack gap="xs" h="100%">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} size="h4">
                      <Link to={`/courses/${course.id}`} style={{ color: "inherit" }}>
                        {course.name}
                      </Link>
                    </Title>
                    <Text size="sm" c="dimmed" ff="monospace">
                      {course.code}
                    </Text>
                  </Stack>
                  <Tag variant="light" style={{ flexShrink: 0 }}>
                    {LEVEL_LABELS[course.level] ?? course.level}
                  </Tag>
                </Group>
                <Tag color={course.isActive ? "green" : "gray"} variant="dot">
                  {course.isActive ? "Active" : "Inactive"}
                </Tag>
                {course.description ? (
                  <Text size="sm" lineClamp={2}>
                    {course.description}
                  </Text>
                ) : null}
                <Group justify="flex-end" mt="auto" gap="xs">
                  <Button variant="light" size="xs" leftSection={<IconEdit size={14} />} onClick={() => openEdit(course)}>
                    Edit
                  </Button>
                  <ActionIcon variant="light" color="red" aria-label={`Delete course ${course.code}`} onClick={() => confirmDelete(course)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <CourseFormModal opened={opened} onClose={() => setOpened(false)} course={editing} />
    </>
  );
}
