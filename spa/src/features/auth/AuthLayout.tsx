import { Box, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCalendarStats, type Icon } from "@tabler/icons-react";
import type { ReactNode } from "react";

export interface Feature {
  title: string;
  text: string;
  icon: Icon;
}

/** The two-column sign-in layout: the form card and a side panel of feature cards (docs/behaviour/accounts.md §2). */
export function AuthLayout({ children, heading, intro, features }: { children: ReactNode; heading: string; intro: string; features: Feature[] }) {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)" p={{ base: "md", md: "xl" }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" maw={1180} mx="auto" mih="calc(100vh - 64px)" style={{ alignItems: "center" }}>
        <Stack component="main" maw={460} w="100%" mx="auto">
          <Group gap="xs">
            <IconCalendarStats size={32} color="var(--mantine-color-indigo-6)" aria-hidden />
            <Text fw={700} size="xl">
              Blockplan
            </Text>
          </Group>
          {children}
          <Text size="xs" c="dimmed" ta="center">
            © 2025 Blockplan. All rights reserved.
          </Text>
        </Stack>
        <Stack component="aside" aria-label="Features" gap="md">
          <Title order={2}>{heading}</Title>
          <Text c="dimmed">{intro}</Text>
          {features.map((feature) => (
            <Card key={feature.title} withBorder radius="md" padding="lg">
              <Group align="flex-start" wrap="nowrap">
                <ThemeIcon size={40} radius="md" variant="light">
                  <feature.icon size={22} aria-hidden />
                </ThemeIcon>
                <Box>
                  <Title order={3} size="h5">
                    {feature.title}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {feature.text}
                  </Text>
                </Box>
              </Group>
            </Card>
          ))}
        </Stack>
      </SimpleGrid>
    </Box>
  );
}
