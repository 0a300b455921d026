import { Card, SimpleGrid, Stack } from "@mantine/core";
import { Tag } from "../../components/Tag";
import { useState } from "react";
import { useParams } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { DetailEditButton, DetailField, detailPageFallback } from "../../components/DetailPage";
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
  const query = useCourse(id);
  const course = query.data;
  const [opened, setOpened] = useState(false);
  // Its block groups, and the units of the study plans they are assigned (issue 18).
  const groups = useBlockGroups({ course: course ? [course.code] : [] }, !!course);
  const units = useUnits(id);
  const fallback = detailPageFallback(query, "Failed to load courses. Please try again.", { to: "/courses", label: "Back to Courses" });
  if (fallback || !course) return fallback;
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
            <DetailEditButton onClick={() => setOpened(true)} />
          </>
        }
      />
      <Card withBorder padding="lg">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <DetailField label="Code" value={course.code} />
            <DetailField label="Level" value={LEVEL_LABELS[course.level] ?? course.level} />
            <DetailField label="Status" value={course.isActive ? "Active" : "Inactive"} />
          </SimpleGrid>
          <DetailField label="Description" value={course.description || "No description"} />
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
