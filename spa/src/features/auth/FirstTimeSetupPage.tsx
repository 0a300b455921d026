import { PageHeader } from "../../components/PageHeader";

/** First-time setup (/setup, /first-time): placeholder until the screen lands. */
export default function FirstTimeSetupPage() {
  return <PageHeader title="First-time setup (/setup, /first-time)" />;
}
