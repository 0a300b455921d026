import { PageHeader } from "../../components/PageHeader";

/** Organization management (/organization): placeholder until the screen lands. */
export default function OrganizationPage() {
  return <PageHeader title="Organization management (/organization)" />;
}
