/**
 * The tables of the pages and reports: a header row of column labels and one body row a record, each cell
 * drawn by its column. Give `minWidth` for a table that scrolls sideways on a phone (ADR 0018).
 */
import { Table, Text, type TableProps, type TableScrollContainerProps, type TableTdProps, type TableTrProps } from "@mantine/core";
import type { ReactNode } from "react";

export interface DataColumn<T> {
  /** The header text; also the column's key, and the header's aria-label when `hideLabel`. */
  label: string;
  /** A header shown instead of the label (a visually hidden one, say). */
  header?: ReactNode;
  /** An empty header named only by aria-label (an actions column). */
  hideLabel?: boolean;
  cell: (row: T) => ReactNode;
  /** Props of every body cell of the column (width, alignment, font). */
  td?: TableTdProps;
}

type RowProps = TableTrProps & { "data-testid"?: string };

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowProps,
  minWidth,
  scrollProps,
  ...tableProps
}: {
  rows: T[];
  columns: DataColumn<T>[];
  rowKey: (row: T) => string | number;
  /** Props of each body row (a test id). */
  rowProps?: (row: T) => RowProps;
  /** The width under which the table scrolls sideways inside its container. */
  minWidth?: number;
  /** More props of the scroll container (only with `minWidth`). */
  scrollProps?: Omit<TableScrollContainerProps, "minWidth" | "children">;
} & TableProps & { "data-testid"?: string; "aria-label"?: string }) {
  const table = (
    <Table {...tableProps}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (c.hideLabel ? <Table.Th key={c.label} aria-label={c.label} /> : <Table.Th key={c.label}>{c.header ?? c.label}</Table.Th>))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((c) => (
              <Table.Td key={c.label} {...c.td}>
                {c.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth ? (
    // The container itself scrolls (native) and is focusable, so a keyboard can scroll it (axe:
    // scrollable-region-focusable; a ScrollArea's inner viewport would not be).
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0} {...scrollProps}>
      {table}
    </Table.ScrollContainer>
  ) : (
    table
  );
}

/** A cell of two lines: a record's code in bold over its name, dimmed (a unit, a room). */
export function CodeOverName({ code, name }: { code: ReactNode; name: ReactNode }) {
  return (
    <>
      <Text size="sm" fw={600}>
        {code}
      </Text>
      <Text size="xs" c="dimmed">
        {name}
      </Text>
    </>
  );
}
