/**
 * "Import public holidays" on the Holidays page (ADR 0018): a state and a year, a preview of the
 * holidays that would be added (dates already present are skipped), then Add. POST
 * /api/holidays/import-public with `preview: true`, then without.
 */
import { Modal, Select, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useState } from "react";
import { formatDateLong } from "@/components/Dates";
import { FormActions } from "@/components/FormActions";
import { notifyError, notifySuccess } from "@/components/Notify";
import { client } from "@/lib/api";
import { roots } from "@/lib/queryKeys";

export const STATES = ["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"] as const;

async function importPublic(state: string, year: number, preview: boolean) {
  const { data } = await client.POST("/api/holidays/import-public", { body: { state, year, preview } });
  return data!;
}

export function ImportPublicHolidaysModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [state, setState] = useState<string>("VIC");
  const [year, setYear] = useState<number>(dayjs().year() + 1);
  const qc = useQueryClient();
  const preview = useQuery({
    queryKey: [...roots.holidays, "import-preview", state, year],
    queryFn: () => importPublic(state, year, true),
    enabled: opened,
    staleTime: 0,
  });
  const add = useMutation({
    mutationFn: () => importPublic(state, year, false),
    onSuccess: (result) => {
      void qc.invalidateQueries({ queryKey: roots.holidays });
      notifySuccess(`${result.added.length} public holidays of ${state} ${year} added`, "Public holidays imported");
      onClose();
    },
    onError: () => notifyError("Failed to import public holidays", "Please try again."),
  });
  const rows = preview.data?.wouldAdd ?? [];
  return (
    <Modal opened={opened} onClose={onClose} title="Import public holidays" size="lg">
      <Stack>
        <SimpleGrid cols={2}>
          <Select label="State" data={[...STATES]} value={state} onChange={(v) => v && setState(v)} allowDeselect={false} />
          <Select
            label="Year"
            data={Array.from({ length: 5 }, (_, i) => String(dayjs().year() - 1 + i))}
            value={String(year)}
            onChange={(v) => v && setYear(Number(v))}
            allowDeselect={false}
          />
        </SimpleGrid>
        {preview.isLoading ? (
          <Text c="dimmed">Loading the public holidays...</Text>
        ) : preview.isError ? (
          <Text c="red">The public holidays could not be loaded. Please try again.</Text>
        ) : (
          <>
            <Text size="sm" data-testid="import-summary">
              {rows.length ? `${rows.length} holidays will be added.` : "Nothing to add."}
              {preview.data?.skipped ? ` ${preview.data.skipped} already in your holidays will be skipped.` : ""}
            </Text>
            {rows.length ? (
              <Table striped data-testid="import-preview" data={{ head: ["Date", "Holiday"], body: rows.map((h) => [formatDateLong(h.date), h.name]) }} />
            ) : null}
          </>
        )}
        <FormActions
          onCancel={onClose}
          submitLabel={rows.length ? `Add ${rows.length} holidays` : "Add"}
          onSubmit={() => add.mutate()}
          loading={add.isPending}
          disabled={!rows.length}
        />
      </Stack>
    </Modal>
  );
}
