/**
 * Every teacher ranked for one session, with the rules each meets or breaks, for the Allocate
 * Teacher dialog. Clicking a row (or its radio) selects the teacher. Teachers who break a rule stay
 * selectable: a coordinator may override a soft rule, and the server refuses hard clashes with 409.
 */
import { Alert, Badge, Button, Group, List, Paper, Radio, Skeleton, Stack, Text, ThemeIcon, useComputedColorScheme, VisuallyHidden } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import { useState, type MouseEvent } from "react";
import { lightTagText } from "@/components/Tag";
import { errorMessage } from "@/lib/api";
import { useRecommendations, type Recommendation } from "./api";
import { percent, plural } from "@/lib/format";

export interface TeacherRecommendationsProps {
  sessionId: string;
  selectedTeacherId: string | null | undefined;
  onSelect: (teacherId: string) => void;
}

/** How many teachers show before "Show all" (the dialog's Allocate button stays in view). */
export const TOP = 5;

export function TeacherRecommendations({ sessionId, selectedTeacherId, onSelect }: TeacherRecommendationsProps) {
  const { data, isPending, isError, error } = useRecommendations(sessionId);
  const [all, setAll] = useState(false);

  if (isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Ranking teachers…" data-testid="recommendations-loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={64} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (isError) {
    return (
      <Alert color="red" title="Recommendations unavailable" role="alert">
        {errorMessage(error, "The teachers could not be ranked. Please try again.")}
      </Alert>
    );
  }
  const rows = [...data.recommendations].sort((a, b) => a.rank - b.rank);
  if (!rows.length) return <Text c="gray.7">No teachers yet. Add teachers to see recommendations.</Text>;

  return (
    <Radio.Group
      value={selectedTeacherId ?? null}
      onChange={onSelect}
      label="Recommended teachers"
      description="Ranked by the allocation rules: eligible teachers first, then continuity and the lightest week."
    >
      <Stack gap="xs" mt="xs" data-testid="recommendations">
        {/* The top five, and the chosen teacher wherever it ranks. */}
        {rows
          .filter((r, i) => all || i < TOP || r.teacherId === selectedTeacherId)
          .map((r) => (
            <RecommendationRow key={r.teacherId} item={r} selected={r.teacherId === selectedTeacherId} onSelect={onSelect} />
          ))}
        {rows.length > TOP ? (
          <Button variant="subtle" size="compact-sm" onClick={() => setAll((v) => !v)} style={{ alignSelf: "flex-start" }}>
            {all ? `Show the top ${TOP}` : `Show all ${rows.length} teachers`}
          </Button>
        ) : null}
      </Stack>
    </Radio.Group>
  );
}

function RecommendationRow({ item, selected, onSelect }: { item: Recommendation; selected: boolean; onSelect: (id: string) => void }) {
  const scheme = useComputedColorScheme("light");
  const broken = item.rules.filter((r) => !r.met);
  // The radio and its label select through Radio.Group; anywhere else on the row selects too.
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest("input, label")) return;
    onSelect(item.teacherId);
  };
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      onClick={onClick}
      data-testid="recommendation"
      data-teacher-id={item.teacherId}
      data-selected={selected || undefined}
      style={{
        cursor: "pointer",
        borderColor: selected ? "var(--mantine-color-blue-6)" : undefined,
        boxShadow: selected ? "0 0 0 1px var(--mantine-color-blue-6)" : undefined,
      }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <Text fw={700} c="gray.7" w={28} aria-hidden>
            #{item.rank}
          </Text>
          <Stack gap={4}>
            <Radio value={item.teacherId} label={<Text fw={600}>{item.teacherName}</Text>} />
            <Group gap={6}>
              {item.rank === 1 && item.eligible ? (
                <Badge color="green.9" variant="filled" tt="none">
                  Recommended
                </Badge>
              ) : null}
              {!item.eligible ? (
                <Badge color="red.9" variant="filled" tt="none">
                  Breaks {plural(broken.length, "rule")}
                </Badge>
              ) : null}
              {item.continuity ? (
                <Badge color="blue" variant="light" c={lightTagText("blue", scheme)} tt="none">
                  Teaches this unit to this group
                </Badge>
              ) : null}
              {item.preferenceReason ? (
                <Badge color={item.preferenceWeight > 0 ? "orange" : "teal"} variant="light" tt="none" data-testid="preference-reason">
                  {item.preferenceReason.charAt(0).toUpperCase() + item.preferenceReason.slice(1)}
                </Badge>
              ) : null}
            </Group>
          </Stack>
        </Group>
        <Stack gap={0} align="flex-end">
          <Text size="sm" fw={600}>
            {percent(item.utilisationAfter)}
          </Text>
          <Text size="xs" c="gray.7">
            utilisation after
          </Text>
        </Stack>
      </Group>
      <List size="xs" spacing={2} mt={6} ml={40} listStyleType="none" aria-label={`Rules for ${item.teacherName}`}>
        {item.rules.map((rule) => (
          <List.Item
            key={rule.rule}
            data-rule={rule.rule}
            data-met={rule.met}
            icon={
              <ThemeIcon size={16} radius="xl" color={rule.met ? "green.9" : "red.9"} aria-hidden>
                {rule.met ? <IconCheck size={12} /> : <IconX size={12} />}
              </ThemeIcon>
            }
          >
            <Text span size="xs" c={rule.met ? "gray.8" : "red.9"} fw={rule.met ? 400 : 600}>
              <VisuallyHidden>{rule.met ? "Met: " : "Broken: "}</VisuallyHidden>
              {rule.message}
            </Text>
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
