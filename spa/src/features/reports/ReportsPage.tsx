import { Tabs } from "@mantine/core";
import { useState } from "react";
import { PageHeader } from "@/components/PageHeader";
import { LoadPlanningTab } from "./components/LoadPlanningTab";
import { RoomUtilisationTab } from "./components/RoomUtilisationTab";
import { SchedulingSummaryTab } from "./components/SchedulingSummaryTab";
import { WithoutTimetablesTab } from "./components/WithoutTimetablesTab";
import { WorkloadTab } from "./components/WorkloadTab";

/** The report tabs, in order. */
const TABS = [
  { value: "without", label: "Block Groups Without Timetables", Report: WithoutTimetablesTab },
  { value: "workload", label: "Teacher Workload Summary", Report: WorkloadTab },
  { value: "scheduling", label: "Scheduling Summary", Report: SchedulingSummaryTab },
  { value: "load", label: "Load Planning", Report: LoadPlanningTab },
  { value: "rooms", label: "Room Utilisation", Report: RoomUtilisationTab },
];

/** Reports (/reports): docs/behaviour/reports.md; Block Groups Without Timetables first. */
export default function ReportsPage() {
  const [tab, setTab] = useState<string | null>("without");
  return (
    <>
      <PageHeader title="Reports" subtitle="Generate and view system reports" />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            <t.Report />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
