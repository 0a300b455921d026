import { PageHeader } from "../../components/PageHeader";

/** Profile (/profile): placeholder until the screen lands. */
export default function ProfilePage() {
  return <PageHeader title="Profile (/profile)" />;
}
