import { Button, FileInput, Group, List, Modal, Progress, ScrollArea, Stack, Text } from "@mantine/core";
import { FormActions } from "@/components/FormActions";
import { Notice } from "@/components/Notice";
import { useQueryClient } from "@tanstack/react-query";
import { IconDownload, IconUpload } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { downloadBlob } from "@/components/Csv";
import { notifyError, notifySuccess } from "@/components/Notify";
import { roots } from "@/lib/queryKeys";
import { downloadTemplate, uploadImport, type ImportFailure } from "../api/timetables";

const count = (v: string[] | number | undefined) => (Array.isArray(v) ? v.length : (v ?? 0));

/** Import sessions from .xlsx/.xls with upload progress and row-level errors (docs/behaviour/hours.md §4; docs/behaviour/errors.md §9). */
export function ImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<ImportFailure | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setFile(null);
      setProgress(null);
      setFailure(null);
      setFileError(null);
    }
  }, [opened]);

  const pick = (f: File | null) => {
    setFailure(null);
    if (f && !/\.(xlsx|xls)$/i.test(f.name)) {
      setFileError("Only .xlsx or .xls files are accepted");
      setFile(null);
      return;
    }
    setFileError(null);
    setFile(f);
  };
  const submit = async () => {
    if (!file) return;
    setFailure(null);
    setProgress(0);
    try {
      const result = await uploadImport(file, setProgress);
      setProgress(100);
      const s = result.stats;
      notifySuccess(
        `Imported ${s.sessionsCreated} sessions, ${count(s.blockGroupsCreated)} block groups and ${count(s.unitsCreated)} units created.`,
        "Import successful",
      );
      await Promise.all([roots.timetables, roots.blockGroups, roots.units].map((queryKey) => qc.invalidateQueries({ queryKey })));
      onClose();
    } catch (e) {
      const f = e as ImportFailure;
      setProgress(null);
      setFailure(f);
      notifyError("Import Failed", f.message || "Unknown error occurred");
    }
  };
  const template = async () => {
    try {
      downloadBlob(await downloadTemplate(), "timetable-import-template.xlsx");
      notifySuccess("Template downloaded");
    } catch {
      notifyError("Error", "Failed to download the template");
    }
  };
  const rowText = (e: ImportFailure["errors"][number]) => {
    const row = e.row ?? (e.path?.[0] === "rows" ? e.path[1] : undefined);
    const column = e.path?.[0] === "rows" ? e.path[2] : undefined;
    return `${row !== undefined ? `Row ${row}` : "File"}${column ? ` (${column})` : ""}: ${e.message}`;
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Import Timetable" size="lg">
      <Stack>
        <Text size="sm">
          Upload an Excel file (.xlsx or .xls) in the template's layout. If any row is wrong nothing is imported and every problem is listed.
        </Text>
        <Group>
          <Button variant="light" leftSection={<IconDownload size={16} />} onClick={template}>
            Download Template
          </Button>
        </Group>
        <FileInput label="Excel file" placeholder="Choose a .xlsx or .xls file" accept=".xlsx,.xls" value={file} onChange={pick} error={fileError} clearable />
        {progress !== null ? <Progress value={progress} animated={progress < 100} aria-label={`Upload ${progress}%`} /> : null}
        {failure ? (
          <Notice color="red" title="Import Failed" role="alert" data-testid="import-errors">
            <Text size="sm">{failure.message || "Unknown error occurred"}</Text>
            {failure.errors.length ? (
              <ScrollArea.Autosize mah={240}>
                <List size="sm" mt="xs">
                  {failure.errors.map((e, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a list rendered whole from one answer; messages may repeat and have no identity
                    <List.Item key={i}>{rowText(e)}</List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
            ) : null}
          </Notice>
        ) : null}
        <FormActions
          onCancel={onClose}
          leftSection={<IconUpload size={16} />}
          submitLabel="Import"
          onSubmit={submit}
          disabled={!file}
          loading={progress !== null && progress < 100}
        />
      </Stack>
    </Modal>
  );
}
