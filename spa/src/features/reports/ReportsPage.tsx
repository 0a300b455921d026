import { Tabs } from "@mantine/core";
import { useState } from "react";
import { PageHeader } from "../../components/PageHeader";
import { LoadPlanningTab } from "./components/LoadPlanningTab";
import { RoomUtilisationTab } from "./components/RoomUtilisationTab";
import { SchedulingSummaryTab } from "./components/SchedulingSummaryTab";
import { WithoutTimetablesTab } from "./components/WithoutTimetablesTab";
import { WorkloadTab } from "./components/WorkloadTab";

/** Reports (/reports): delivery.md §2 Reports; Block Groups Without Timetables first. */
export default function ReportsPage() {
  const [tab, setTab] = useState<string | null>("without");
  return (
    <>
      <PageHeader title="Reports" subtitle="Generate and view system reports" />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="without">Block Groups Without Timetables</Tabs.Tab>
          <Tabs.Tab value="workload">Teacher Workload Summary</Tabs.Tab>
          <Tabs.Tab value="scheduling">Scheduling Summary</Tabs.Tab>
          <Tabs.Tab value="load">Load Planning</Tabs.Tab>
          <Tabs.Tab value="rooms">Room Utilisation</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="without">
          <WithoutTimetablesTab />
        </Tabs.Panel>
        <Tabs.Panel value="workload">
          <WorkloadTab />
        </Tabs.Panel>
        <Tabs.Panel value="scheduling">
          <SchedulingSummaryTab />
        </Tabs.Panel>
        <Tabs.Panel value="load">
          <LoadPlanningTab />
        </Tabs.Panel>
        <Tabs.Panel value="rooms">
          <RoomUtilisationTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
