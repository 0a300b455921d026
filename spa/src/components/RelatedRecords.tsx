/**
 * The records a detail page lists under its own (ADR 0018): a course's or a study plan's units and
 * block groups. Each row links to its record; the table scrolls sideways on a phone.
 */
import { Card, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { DataTable, type DataColumn } from "./DataTable";
import { formatDate } from "./Dates";

export type RelatedColumn<T> = DataColumn<T>;

export function RelatedRecords<T extends { id: string }>({
  title,
  rows,
  columns,
  loading,
  empty,
  testId,
}: {
  title: string;
  rows: T[] | undefined;
  columns: RelatedColumn<T>[];
  loading: boolean;
  empty: string;
  testId: string;
}) {
  return (
    <Card withBorder padding="lg" data-testid={testId}>
      <Title order={2} size="h4" mb="sm">
        {title}
        {rows ? ` (${rows.length})` : ""}
      </Title>
      {loading ? (
        <Text c="dimmed">Loading...</Text>
      ) : !rows?.length ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <DataTable striped minWidth={480} rows={rows} rowKey={(r) => r.id} columns={columns} />
      )}
    </Card>
  );
}

/** A record's code as a link to its detail page. */
export const CodeLink = ({ to, code }: { to: string; code: string }) => (
  <Link to={to} style={{ fontWeight: 600 }}>
    {code}
  </Link>
);

/** The block groups a record page lists (a course's, a study plan's): code (linked), name, start, status. */
export function RelatedBlockGroups<T extends { id: string; code: string; name: string; startDate?: string | null; status: string }>(props: {
  testId: string;
  rows: T[] | undefined;
  loading: boolean;
  empty: string;
}) {
  return (
    <RelatedRecords
      title="Block Groups"
      columns={[
        { label: "Code", cell: (g) => <CodeLink to={`/block-groups/${g.id}`} code={g.code} /> },
        { label: "Name", cell: (g) => g.name },
        { label: "Start", cell: (g) => formatDate(g.startDate, "-") },
        { label: "Status", cell: (g) => g.status },
      ]}
      {...props}
    />
  );
}
