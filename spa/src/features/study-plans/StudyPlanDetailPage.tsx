import { PageHeader } from "../../components/PageHeader";

/** Study plan detail (/study-plans/:id): placeholder until the screen lands. */
export default function StudyPlanDetailPage() {
  return <PageHeader title="Study plan detail (/study-plans/:id)" />;
}
