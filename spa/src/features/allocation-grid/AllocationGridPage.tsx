import { PageHeader } from "../../components/PageHeader";

/** Teacher allocation grid (/teacher-allocation-gantt): placeholder until the screen lands. */
export default function AllocationGridPage() {
  return <PageHeader title="Teacher allocation grid (/teacher-allocation-gantt)" />;
}
