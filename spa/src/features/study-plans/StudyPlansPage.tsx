import { PageHeader } from "../../components/PageHeader";

/** Study plans (/study-plans): placeholder until the screen lands. */
export default function StudyPlansPage() {
  return <PageHeader title="Study plans (/study-plans)" />;
}
