import { PageHeader } from "../../components/PageHeader";

/** Block group detail (/block-groups/:id): placeholder until the screen lands. */
export default function BlockGroupDetailPage() {
  return <PageHeader title="Block group detail (/block-groups/:id)" />;
}
