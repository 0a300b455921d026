import { PageHeader } from "../../components/PageHeader";

/** Unit detail (/units/:id): placeholder until the screen lands. */
export default function UnitDetailPage() {
  return <PageHeader title="Unit detail (/units/:id)" />;
}
