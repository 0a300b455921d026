import { PageHeader } from "../../components/PageHeader";

/** Block groups (/block-groups): placeholder until the screen lands. */
export default function BlockGroupsPage() {
  return <PageHeader title="Block groups (/block-groups)" />;
}
