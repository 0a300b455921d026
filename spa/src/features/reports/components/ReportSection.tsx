import { Card, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import type { DataColumn } from "@/components/DataTable";

/** What a report shows while its data loads. */
export const REPORT_LOADING = <Text>Loading report data...</Text>;

/** A titled card of a report (a table of the report: "By room", "Monthly Breakdown"). */
export function ReportSection({ title, children, "data-testid": testId }: { title: ReactNode; children: ReactNode; "data-testid"?: string }) {
  return (
    <Card withBorder data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/**
 * A report's body: "Loading report data..." while its query loads, `failed` when it failed (or has no
 * data), else the report drawn by `children`.
 */
export function ReportStates<T>({
  query,
  failed,
  children,
}: {
  query: { isLoading: boolean; isError: boolean; data: T | undefined };
  failed: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isLoading) return REPORT_LOADING;
  if (query.isError || !query.data) return failed;
  return children(query.data);
}

/** A report table's "Unit" column: the unit's code in bold, then its name. */
export function unitColumn<T extends { unitCode: string; unitName: string }>(): DataColumn<T> {
  return {
    label: "Unit",
    cell: (u) => (
      <>
        <b>{u.unitCode}</b> {u.unitName}
      </>
    ),
  };
}
