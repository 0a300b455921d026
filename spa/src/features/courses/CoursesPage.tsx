import { SimpleGrid, Text } from "@mantine/core";
import { ActiveTag, Tag } from "@/components/Tag";
import { AddButton, CardEditButton, confirmAndMutate, DeleteAction, ListStates, RecordCard, useEditDialog } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import { LEVEL_LABELS, useCourses, useDeleteCourse, type Course } from "./api/courses";
import { CourseFormModal } from "./components/CourseFormModal";

/** Courses (/courses): docs/behaviour/units-and-courses.md §1. */
export default function CoursesPage() {
  const { data, isLoading, isError } = useCourses();
  const dialog = useEditDialog<Course>();
  const remove = useDeleteCourse();
  const confirmDelete = (course: Course) =>
    confirmAndMutate(remove, course.id, {
      title: "Delete Course",
      message: "Are you sure you want to delete the course? You can undo it from the message that follows or from History.",
      done: "Course deleted successfully",
      failed: ["Error", "Failed to delete course."],
    });

  return (
    <>
      <PageHeader
        title="Courses"
        subtitle="Manage Certificate III, IV, and Diploma courses"
        actions={<AddButton onClick={() => dialog.open(null)}>Add Course</AddButton>}
      />
      <ListStates
        rows={data}
        loading={isLoading && <CardGridSkeleton count={6} />}
        failed={isError && <ErrorState message="Failed to load courses. Please try again." />}
        empty={
          <EmptyState
            title="No courses found"
            description="Get started by creating your first course."
            action={<AddButton onClick={() => dialog.open(null)}>Create Course</AddButton>}
          />
        }
      >
        {(courses) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {courses.map((course) => (
              <RecordCard
                key={course.id}
                testId="course-card"
                title={{
                  name: course.name,
                  to: `/courses/${course.id}`,
                  subtitle: course.code,
                  monospace: true,
                  tag: (
                    <Tag variant="light" style={{ flexShrink: 0 }}>
                      {LEVEL_LABELS[course.level] ?? course.level}
                    </Tag>
                  ),
                }}
                actions={
                  <>
                    <CardEditButton onClick={() => dialog.open(course)} />
                    <DeleteAction label={`Delete course ${course.code}`} onClick={() => confirmDelete(course)} />
                  </>
                }
              >
                <ActiveTag active={course.isActive} variant="dot" />
                {course.description ? (
                  <Text size="sm" lineClamp={2}>
                    {course.description}
                  </Text>
                ) : null}
              </RecordCard>
            ))}
          </SimpleGrid>
        )}
      </ListStates>
      <CourseFormModal opened={dialog.opened} onClose={dialog.close} course={dialog.editing} />
    </>
  );
}
