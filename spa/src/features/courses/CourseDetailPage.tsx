import { PageHeader } from "../../components/PageHeader";

/** Course detail (/courses/:id): placeholder until the screen lands. */
export default function CourseDetailPage() {
  return <PageHeader title="Course detail (/courses/:id)" />;
}
