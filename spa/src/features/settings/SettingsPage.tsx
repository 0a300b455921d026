import { PageHeader } from "../../components/PageHeader";

/** Settings (/settings): placeholder until the screen lands. */
export default function SettingsPage() {
  return <PageHeader title="Settings (/settings)" />;
}
