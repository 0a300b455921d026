import { PageHeader } from "../../components/PageHeader";

/** Wall display (/display/:token): placeholder until the screen lands. */
export default function DisplayBoardPage() {
  return <PageHeader title="Wall display (/display/:token)" />;
}
