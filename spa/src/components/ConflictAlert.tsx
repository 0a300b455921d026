import { List } from "@mantine/core";
import { Notice } from "./Notice";
import type { ConflictItem } from "./Notify";

/** The clashes a refused write (409 `conflict`) names, one per line (docs/behaviour/conflicts.md §4). */
export function ConflictAlert({ title, conflicts }: { title: string; conflicts: ConflictItem[] }) {
  if (!conflicts.length) return null;
  return (
    <Notice color="red" title={title} role="alert" data-testid="conflict-alert">
      <List size="sm">
        {conflicts.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a list rendered whole from one answer; messages may repeat and have no identity
          <List.Item key={i}>{c.message}</List.Item>
        ))}
      </List>
    </Notice>
  );
}
