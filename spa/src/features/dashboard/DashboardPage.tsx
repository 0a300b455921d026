import { PageHeader } from "../../components/PageHeader";

/** Dashboard (/): placeholder until the screen lands. */
export default function DashboardPage() {
  return <PageHeader title="Dashboard (/)" />;
}
