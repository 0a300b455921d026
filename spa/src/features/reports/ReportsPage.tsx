import { PageHeader } from "../../components/PageHeader";

/** Reports (/reports): placeholder until the screen lands. */
export default function ReportsPage() {
  return <PageHeader title="Reports (/reports)" />;
}
