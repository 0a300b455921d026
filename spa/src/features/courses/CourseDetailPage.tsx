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
import { blockGroupColumns, CodeLink, RelatedRecords } from "../../components/RelatedRecords";
import { formatDate } from "../../components/Dates";
import { useBlockGroups } from "../block-groups/api/blockGroups";
import { useUnits } from "../units/api/units";

/** Course detail (/courses/:id): delivery.md §2 Courses. */
export default function CourseDetailPage() {
  const { id = "" } = useParams();
  const { data: course, isLoading, isError, error, refetch } = useCourse(id);
  const [opened, setOpened] = useState(false);
  // Its block groups, and the units of the study plans they are assigned (issue 18).
  const groups = useBlockGroups({ course: course ? [course.code] : [] }, !!course);
  const units = useUnits(id);
  if (isLoading) return <FullPageLoader />;
  if (isError || !course)
    return (
      <RecordLoadError
        error={error}
        message="Failed to load courses. Please try again."
        onRetry={() => void refetch()}
        back={{ to: "/courses", label: "Back to Courses" }}
      />
    );
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
      <SimpleGrid cols={{ base: 1, lg: 2 }} mt="md">
        <RelatedRecords
          title="Units of Competency"
          testId="course-units"
          rows={units.data}
          loading={units.isLoading}
          empty="No units yet: assign a study plan to one of this course's block groups."
          columns={[
            { label: "Code", cell: (u) => <CodeLink to={`/units/${u.id}`} code={u.code} /> },
            { label: "Name", cell: (u) => u.name },
            { label: "Nominal Hours", cell: (u) => u.nominalHours },
            { label: "Type", cell: (u) => (u.isCore ? "Core" : "Elective") },
          ]}
        />
        <RelatedRecords
          title="Block Groups"
          testId="course-block-groups"
          rows={course ? groups.data : undefined}
          loading={groups.isLoading}
          empty="No block groups of this course yet."
          columns={blockGroupColumns((d) => formatDate(d, "-"))}
        />
      </SimpleGrid>
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
