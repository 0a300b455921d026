import { Button, FileButton, Group, List, Modal, Text } from "@mantine/core";
import { IconDownload, IconUpload } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { notifySuccess } from "@/components/Notify";
import { roots } from "@/lib/queryKeys";
import { AVAILABILITY_EXPORT_URL, type AvailabilityImportError, importAvailability } from "../api/availability";

/** The teachers page's availability workbook (ADR 0027): export every teacher's windows as .xlsx, import them back (row errors listed). */
export function AvailabilityWorkbook() {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; errors: AvailabilityImportError[] } | null>(null);
  const upload = async (file: File | null) => {
    if (!file) return;
    setBusy(true);
    try {
      notifySuccess(await importAvailability(file));
      await qc.invalidateQueries({ queryKey: roots.teachers });
    } catch (err) {
      setFailure(err as { message: string; errors: AvailabilityImportError[] });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap="xs">
      <Button component="a" href={AVAILABILITY_EXPORT_URL} variant="light" leftSection={<IconDownload size={16} />}>
        Export Availability
      </Button>
      <FileButton onChange={upload} accept=".xlsx,.xls">
        {(props) => (
          <Button {...props} variant="light" loading={busy} leftSection={<IconUpload size={16} />}>
            Import Availability
          </Button>
        )}
      </FileButton>
      <Modal opened={!!failure} onClose={() => setFailure(null)} title="Availability not imported">
        <Text size="sm" mb="xs">
          {failure?.message}
        </Text>
        <List size="sm">
          {(failure?.errors ?? []).map((e) => (
            <List.Item key={`${e.path.join(".")}-${e.message}`}>
              {e.row ? `Row ${e.row}, ${e.path[2]}: ` : ""}
              {e.message}
            </List.Item>
          ))}
        </List>
      </Modal>
    </Group>
  );
}
