import { PageHeader } from "../../components/PageHeader";

/** Units of competency (/units): placeholder until the screen lands. */
export default function UnitsPage() {
  return <PageHeader title="Units of competency (/units)" />;
}
