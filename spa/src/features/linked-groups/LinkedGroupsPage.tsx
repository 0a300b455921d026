import { PageHeader } from "../../components/PageHeader";

/** Linked block groups (/linked-block-groups): placeholder until the screen lands. */
export default function LinkedGroupsPage() {
  return <PageHeader title="Linked block groups (/linked-block-groups)" />;
}
