import { PageHeader } from "../../components/PageHeader";

/** Teachers (/teachers): placeholder until the screen lands. */
export default function TeachersPage() {
  return <PageHeader title="Teachers (/teachers)" />;
}
