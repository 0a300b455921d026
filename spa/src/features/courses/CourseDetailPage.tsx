import { Button, Card, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { IconEdit } from "@tabler/icons-react";
import { useState } from "react";
import { useParams } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { FullPageLoader, RecordLoadError } from "../../components/States";
import { LEVEL_LABELS, useCourse } from "./api/courses";
import { CourseFormModal } from "./components/CourseFormModal";
import { HistoryPanel } from "../history/HistoryPanel";

/** Course detail (/courses/:id): delivery.md §2 Courses. */
export default function CourseDetailPage() {
  const { id = "" } = useParams();
  const { data: course, isLoading, isError, error, refetch } = useCourse(id);
  const [opened, setOpened] = useState(false);
  if (isLoading) return <FullPageLoader />;
  if (isError || !course)
    return <RecordLoadError error={error} message="Failed to load courses. Please try again." onRetry={() => void refetch()} back={{ to: "/courses", label: "Back to Courses" }} />;
  return (
    <>
      <PageHeader
        title={`Course: ${course.name}`}
        subtitle={course.code}
        actions={
          <>
            <Tag size="lg" variant="light">
              {LEVEL_LABELS[course.level] ?? course.level}
            </Tag>
            <Button leftSection={<IconEdit size={16} />} onClick={() => setOpened(true)}>
              Edit
            </Button>
          </>
        }
      />
      <Card withBorder padding="lg">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label="Code" value={course.code} />
            <Field label="Level" value={LEVEL_LABELS[course.level] ?? course.level} />
            <Field label="Status" value={course.isActive ? "Active" : "Inactive"} />
          </SimpleGrid>
          <Field label="Description" value={course.description || "No description"} />
        </Stack>
      </Card>
      <CourseFormModal opened={opened} onClose={() => setOpened(false)} course={course} />
      <HistoryPanel id={id} />
    </>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={4} align="baseline" wrap="nowrap">
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text>{value}</Text>
      </Stack>
    </Group>
  );
}
