import { PageHeader } from "../../components/PageHeader";

/** Holidays (/holidays): placeholder until the screen lands. */
export default function HolidaysPage() {
  return <PageHeader title="Holidays (/holidays)" />;
}
