import { Alert, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FormActions } from "@/components/FormActions";
import { preventingDefault } from "@/components/FormDialog";
import { useCampusOptions } from "@/lib/entities/campuses";
import { fetchImpact, impactSentence, openReplan } from "@/lib/replan";

/**
 * A campus closure day (ADR 0015): pick the campus and the day, see what it hits (GET /api/replan/impact
 * with campusId, start and end) and review its re-plan, the same review as a holiday's (make-up or
 * shift). Nothing is saved until the re-plan is applied: a closure of one campus is not a holiday of the
 * organization.
 */
export function CampusClosureModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const campuses = useCampusOptions();
  const [campusId, setCampusId] = useState<string | null>(null);
  const [day, setDay] = useState("");
  const change = campusId && day ? { campusId, start: day, end: day } : null;
  const impact = useQuery({
    queryKey: ["replan", "impact", change],
    queryFn: () => fetchImpact(change!),
    enabled: opened && change !== null,
    retry: false,
  });
  const sentence = impact.data ? impactSentence(impact.data, "closure") : null;
  const review = () => {
    if (!change) return;
    onClose();
    openReplan(change);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Campus closure">
      <form onSubmit={preventingDefault(review)} noValidate aria-label="Campus closure">
        <Stack>
          <Select
            label="Campus"
            withAsterisk
            data={(campuses.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={campusId}
            onChange={setCampusId}
            searchable
          />
          <TextInput type="date" label="Closure day" withAsterisk value={day} onChange={(e) => setDay(e.currentTarget.value)} />
          {change && impact.isError ? (
            <Alert color="red" title="Could not work out the impact">
              Check the day and try again.
            </Alert>
          ) : null}
          {change && impact.data ? (
            <Text size="sm" data-testid="closure-impact">
              {sentence ? `${sentence}.` : "No session falls on this closure: nothing to re-plan."}
            </Text>
          ) : null}
          <FormActions onCancel={onClose} submitLabel="Review re-plan" disabled={!sentence} loading={impact.isFetching} />
        </Stack>
      </form>
    </Modal>
  );
}
