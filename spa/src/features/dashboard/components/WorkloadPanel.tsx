import { Avatar, Box, Button, Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useNavigate } from "react-router";
import { useTeacherWorkload } from "../api";
import { workloadColor } from "../dates";

/** The dashboard's Teacher Workload card: this week's allocated hours of each teacher against their maximum (docs/behaviour/screens.md §3). */
export function WorkloadPanel() {
  const workload = useTeacherWorkload();
  const navigate = useNavigate();
  const entries = workload.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Title order={2} size="h4">
        Teacher Workload
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        This week's allocation
      </Text>
      {workload.isLoading ? (
        <Stack>
          <Skeleton h={32} />
          <Skeleton h={32} />
          <Skeleton h={32} />
        </Stack>
      ) : entries.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="lg">
          No teacher workload data available
        </Text>
      ) : (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="lg"
          verticalSpacing="sm"
          mah={420}
          style={{ overflowY: "auto" }}
          tabIndex={0}
          role="region"
          aria-label="Teacher workload list"
        >
          {entries.map((entry) => {
            const color = workloadColor(entry.percentage);
            return (
              <Box key={entry.id}>
                <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                  <Group gap="xs" wrap="nowrap" miw={0}>
                    <Avatar size="sm" radius="xl" color="indigo">
                      {entry.initials}
                    </Avatar>
                    <Text size="sm" truncate>
                      {entry.name}
                    </Text>
                  </Group>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                    {entry.hours}h / {entry.maxHours}h ({entry.percentage}%)
                  </Text>
                </Group>
                <Progress value={Math.min(entry.percentage, 100)} color={color} aria-label={`${entry.name} workload ${entry.percentage}%`} data-color={color} />
              </Box>
            );
          })}
        </SimpleGrid>
      )}
      <Button variant="light" fullWidth mt="md" onClick={() => navigate("/teachers")}>
        View All Teachers
      </Button>
    </Card>
  );
}
