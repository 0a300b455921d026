import { SimpleGrid } from "@mantine/core";
import { Tag } from "@/components/Tag";
import { useState } from "react";
import { useParams } from "react-router";
import { PageHeader } from "@/components/PageHeader";
import { DetailEditButton, DetailOverview, detailPageFallback } from "@/components/DetailPage";
import { LEVEL_LABELS, useCourse } from "./api/courses";
import { CourseFormModal } from "./components/CourseFormModal";
import { HistoryPanel } from "@/components/history/HistoryPanel";
import { CodeLink, RelatedBlockGroups, RelatedRecords } from "@/components/RelatedRecords";
import { useBlockGroups } from "@/lib/entities/blockGroups";
import { useUnits } from "@/lib/entities/units";

/** Course detail (/courses/:id): docs/behaviour/units-and-courses.md §1. */
export default function CourseDetailPage() {
  const { id = "" } = useParams();
  const query = useCourse(id);
  const course = query.data;
  const [opened, setOpened] = useState(false);
  // Its block groups, and the units of the study plans they are assigned (ADR 0018).
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
      <DetailOverview
        fields={{ Code: course.code, Level: LEVEL_LABELS[course.level] ?? course.level, Status: course.isActive ? "Active" : "Inactive" }}
        wide={{ Description: course.description || "No description" }}
      />
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
        <RelatedBlockGroups
          testId="course-block-groups"
          rows={course ? groups.data : undefined}
          loading={groups.isLoading}
          empty="No block groups of this course yet."
        />
      </SimpleGrid>
      <CourseFormModal opened={opened} onClose={() => setOpened(false)} course={course} />
      <HistoryPanel id={id} />
    </>
  );
}
