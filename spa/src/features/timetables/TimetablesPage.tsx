import { PageHeader } from "../../components/PageHeader";

/** Timetables (/timetables): placeholder until the screen lands. */
export default function TimetablesPage() {
  return <PageHeader title="Timetables (/timetables)" />;
}
