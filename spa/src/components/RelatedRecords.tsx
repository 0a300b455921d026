/**
 * The records a detail page lists under its own (issue 18): a course's or a study plan's units and
 * block groups. Each row links to its record; the table scrolls sideways on a phone.
 */
import { Card, Table, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

export interface RelatedColumn<T> {
  label: string;
  cell: (row: T) => ReactNode;
}

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
        <Table.ScrollContainer minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.label}>{c.label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  {columns.map((c) => (
                    <Table.Td key={c.label}>{c.cell(r)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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

/** The columns of a related block group row: code (linked), name, start, status. */
export function blockGroupColumns<T extends { id: string; code: string; name: string; startDate?: string | null; status: string }>(
  formatStart: (value: string | null | undefined) => string,
): RelatedColumn<T>[] {
  return [
    { label: "Code", cell: (g) => <CodeLink to={`/block-groups/${g.id}`} code={g.code} /> },
    { label: "Name", cell: (g) => g.name },
    { label: "Start", cell: (g) => formatStart(g.startDate) },
    { label: "Status", cell: (g) => g.status },
  ];
}
