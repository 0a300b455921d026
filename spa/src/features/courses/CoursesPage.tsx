import { PageHeader } from "../../components/PageHeader";

/** Courses (/courses): placeholder until the screen lands. */
export default function CoursesPage() {
  return <PageHeader title="Courses (/courses)" />;
}
