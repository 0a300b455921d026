/**
 * The pieces the record pages share (course, unit, study plan, block group, teacher): what shows while
 * the record loads or when it cannot, the "Edit" button of the header, the titled cards and their
 * label/value fields.
 */
import { Button, Card, Group, SimpleGrid, Stack, Text, Title, type CardProps } from "@mantine/core";
import { IconEdit } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { FullPageLoader, RecordLoadError } from "./States";

/**
 * What a record page shows instead of its record, or null once the record is there: the loader while it
 * loads, else (failed, or not found) the error with Retry and the way `back` to its list.
 */
export function detailPageFallback(
  query: { isLoading: boolean; isError: boolean; error: unknown; data: unknown; refetch: () => unknown },
  message: string,
  back: { to: string; label: string },
) {
  if (query.isLoading) return <FullPageLoader />;
  if (query.isError || !query.data) return <RecordLoadError error={query.error} message={message} onRetry={() => void query.refetch()} back={back} />;
  return null;
}

/** The record page header's "Edit" button. */
export function DetailEditButton({ onClick }: { onClick: () => void }) {
  return (
    <Button leftSection={<IconEdit size={16} />} onClick={onClick}>
      Edit
    </Button>
  );
}

/** A titled card of a record page; `actions` (a button, a year picker) sit right of the title. */
export function DetailSection({
  title,
  actions,
  children,
  ...card
}: CardProps & { title: ReactNode; actions?: ReactNode; children: ReactNode; "data-testid"?: string }) {
  const heading = (
    <Title order={2} size="h4" mb={actions ? undefined : "sm"}>
      {title}
    </Title>
  );
  return (
    <Card withBorder {...card}>
      {actions ? (
        <Group justify="space-between" mb="sm">
          {heading}
          {actions}
        </Group>
      ) : (
        heading
      )}
      {children}
    </Card>
  );
}

/**
 * A labelled value of a record page: the label dimmed above the value; `compact` for the small type of
 * the detail cards (block group, teacher). The value may be a tag.
 */
export function DetailField({ label, value, compact, preWrap }: { label: string; value: ReactNode; compact?: boolean; preWrap?: boolean }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size={compact ? "xs" : "sm"} c="dimmed">
        {label}
      </Text>
      {typeof value === "string" ? (
        // A long value (an email) wraps inside its column instead of running into the next (ADR 0018).
        <Text size={compact ? "sm" : undefined} style={{ overflowWrap: "anywhere", ...(preWrap ? { whiteSpace: "pre-wrap" } : {}) }}>
          {value}
        </Text>
      ) : (
        value
      )}
    </Stack>
  );
}

/**
 * The overview card at the top of a record page: its `fields` (label: value) three to a row, then its
 * `wide` fields (description, prerequisites) each across the card.
 */
export function DetailOverview({ fields, wide, preWrap }: { fields: Record<string, ReactNode>; wide: Record<string, ReactNode>; preWrap?: boolean }) {
  const show = (values: Record<string, ReactNode>) =>
    Object.entries(values).map(([label, value]) => <DetailField key={label} label={label} value={value} preWrap={preWrap} />);
  return (
    <Card withBorder padding="lg">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>{show(fields)}</SimpleGrid>
        {show(wide)}
      </Stack>
    </Card>
  );
}

/** A figure of a card: a small dimmed label over its value in bold (a study plan's hours); a value may be a tag. */
export function LabelledFigure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {typeof value === "string" ? <Text fw={600}>{value}</Text> : value}
    </Stack>
  );
}
