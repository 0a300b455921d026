import { Button, Group, Table, Text } from "@mantine/core";
import { Notice } from "./Notice";
import { STALE_TITLE } from "./Notify";
import type { RecordDialog } from "./useRecordDialog";

/**
 * The alert of a stale save (412) inside a record dialog (ADR 0017): the fields only they
 * changed (already in the form), each field both changed, theirs next to yours, and the two ways on:
 * "Use theirs" (their values in those fields, your other edits kept, nothing saved yet) or "Keep mine"
 * (save the form now, with the fresh If-Match).
 */
export function StaleChanges({ dialog }: { dialog: RecordDialog }) {
  if (!dialog.stale) return null;
  const fields = dialog.staleFields;
  return (
    <Notice color="yellow" title={STALE_TITLE} role="alert" data-testid="stale-alert">
      <Text size="sm">
        Someone else changed this record while you were editing it. Your changes are kept.
        {dialog.staleTaken.length ? ` Their changes to ${dialog.staleTaken.join(", ")} are now in the form.` : ""}
        {fields.length ? " You both changed the fields below: use theirs or keep yours." : " Save again to keep your changes."}
      </Text>
      {fields.length ? (
        <Table mt="xs" withTableBorder verticalSpacing={4} fz="sm" data-testid="stale-fields">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Theirs</Table.Th>
              <Table.Th>Yours</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((f) => (
              <Table.Tr key={f.name} data-field={f.name}>
                <Table.Td fw={600}>{f.label}</Table.Td>
                <Table.Td>{f.theirs}</Table.Td>
                <Table.Td>{f.yours}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      <Group mt="xs" gap="xs">
        {fields.length ? (
          <>
            <Button size="xs" variant="default" onClick={dialog.takeTheirs}>
              Use theirs
            </Button>
            <Button size="xs" onClick={dialog.keepMine}>
              Keep mine
            </Button>
          </>
        ) : null}
      </Group>
    </Notice>
  );
}
