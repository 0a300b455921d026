import { Box, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCalendarPlus, IconChartBar, IconSquarePlus } from "@tabler/icons-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { PlannerView } from "./dates";
import { StatCards } from "./components/StatCards";
import { AllocationPlanner } from "./components/AllocationPlanner";
import { WorkloadPanel } from "./components/WorkloadPanel";
import { UpcomingSessions } from "./components/UpcomingSessions";

const ACTION_CARDS = [
  {
    title: "Create Block Group",
    text: "Set up a new student cohort with its course, campus and study mode.",
    button: "Create Block Group",
    to: "/block-groups",
    icon: IconSquarePlus,
  },
  {
    title: "Generate Timetable",
    text: "Schedule a block group's units across its preferred days.",
    button: "Generate Timetable",
    to: "/block-groups?schedule=1",
    icon: IconCalendarPlus,
  },
  { title: "View Reports", text: "Delivery, workload and compliance reports for your department.", button: "View Reports", to: "/reports", icon: IconChartBar },
];

/** Dashboard (/): stat cards, allocation planner, workload, upcoming sessions and action cards (docs/behaviour/screens.md §3). */
export default function DashboardPage() {
  const [view, setView] = useState<PlannerView>("week");
  const plannerRef = useRef<HTMLDivElement | null>(null);
  const navigate = useNavigate();
  const showWeek = () => {
    setView("week");
    plannerRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  return (
    <Stack gap="lg">
      <StatCards />
      <AllocationPlanner view={view} setView={setView} plannerRef={plannerRef} />
      {/* Upcoming Sessions takes the full width so that every column shows at 1440 px (ADR 0018). */}
      <UpcomingSessions onWeekView={showWeek} />
      <WorkloadPanel />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {ACTION_CARDS.map((card) => (
          <Card key={card.title} withBorder radius="md" padding="lg">
            <Group wrap="nowrap" align="flex-start">
              <ThemeIcon size={40} radius="md" variant="light">
                <card.icon size={22} aria-hidden />
              </ThemeIcon>
              <Box>
                <Title order={2} size="h5">
                  {card.title}
                </Title>
                <Text size="sm" c="dimmed" mb="sm">
                  {card.text}
                </Text>
                <Button size="xs" variant="light" onClick={() => navigate(card.to)}>
                  {card.button}
                </Button>
              </Box>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
