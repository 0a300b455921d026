import { PageHeader } from "../../components/PageHeader";

/** Teacher detail (/teachers/:id): placeholder until the screen lands. */
export default function TeacherDetailPage() {
  return <PageHeader title="Teacher detail (/teachers/:id)" />;
}
