import { zodResolver } from "@hookform/resolvers/zod";
import { Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { Notice } from "@/components/Notice";
import { Tag } from "@/components/Tag";
import { useEffect, useMemo, useState } from "react";
import { useForm, useWatch, type Control, type FieldErrors } from "react-hook-form";
import { hours } from "@/components/Dates";
import { FormActions } from "@/components/FormActions";
import { applyFieldErrors, FormErrorList } from "@/components/FormErrors";
import { FormAutocomplete, FormNumber, FormPicker, FormSelect, FormSwitch } from "@/components/FormFields";
import { classifyError, notifyError, notifySuccess, STALE_MESSAGE, STALE_TITLE } from "@/components/Notify";
import {
  ACTUAL_FIELDS,
  BALANCE_FIELDS,
  planUnitSchema,
  sumActual,
  sumBalance,
  TOLERANCE,
  useClusterNames,
  useSavePlanUnit,
  useUnitOptions,
  type HourField,
  type PlanUnit,
  type PlanUnitFormValues,
  type PlanUnitInput,
} from "../api/planUnits";

const FIELDS = ["unitId", "yearLevel", ...ACTUAL_FIELDS.map((f) => f[0]), ...BALANCE_FIELDS.map((f) => f[0]), "isCluster", "clusterGroup", "insertPosition"];

function toValues(planUnit?: PlanUnit | null): PlanUnitFormValues {
  const values: PlanUnitFormValues = {
    unitId: planUnit?.unitId ?? "",
    yearLevel: planUnit?.yearLevel ?? 1,
    faceToFaceHours: 0,
    facilitatedELearningHours: 0,
    workIntegratedLearningHours: 0,
    inClassAssessmentHours: 0,
    structuredLearningHours: 0,
    workIntegratedLearningBalanceHours: 0,
    cumulativeAssessmentHours: 0,
    isCluster: planUnit?.isCluster ?? false,
    clusterGroup: planUnit?.clusterGroup ?? "",
    insertPosition: "end",
  };
  if (planUnit) for (const [k] of [...ACTUAL_FIELDS, ...BALANCE_FIELDS]) values[k] = planUnit[k];
  return values;
}

/** Add or edit one unit of a study plan (docs/behaviour/study-plans.md; docs/behaviour/hours.md §2; docs/behaviour/errors.md §9). */
export function PlanUnitForm({ planId, planUnit, existing, onDone }: { planId: string; planUnit: PlanUnit | null; existing: PlanUnit[]; onDone: () => void }) {
  const units = useUnitOptions();
  const clusterNames = useClusterNames(planId);
  const save = useSavePlanUnit(planId);
  const [serverMessages, setServerMessages] = useState<string[]>([]);
  const [stale, setStale] = useState(false);
  const { handleSubmit, control, setError, formState, reset } = useForm<PlanUnitFormValues, unknown, PlanUnitInput>({
    resolver: zodResolver(planUnitSchema),
    defaultValues: toValues(planUnit),
  });
  useEffect(() => reset(toValues(planUnit)), [planUnit, reset]);
  const values = useWatch({ control });
  const unit = units.data?.find((u) => u.id === values.unitId);
  const nominal = unit?.nominalHours ?? planUnit?.unit.nominalHours ?? 0;
  const actual = sumActual(values);
  const balance = Math.max(0, nominal - actual);
  const distributed = sumBalance(values);
  const adding = !planUnit;

  const unitChoices = useMemo(() => {
    const taken = new Set(existing.map((e) => e.unitId));
    return (units.data ?? []).filter((u) => !adding || !taken.has(u.id)).map((u) => ({ value: u.id, label: `${u.code} - ${u.name}` }));
  }, [units.data, existing, adding]);

  const positions = [
    { value: "end", label: "Add at end" },
    ...[...existing]
      .sort((a, b) => a.sequenceOrder - b.sequenceOrder)
      .map((e, i) => ({ value: String(i + 1), label: `Position ${i + 1} (before ${e.unit.code})` })),
  ];

  const onSubmit = handleSubmit(async (input) => {
    setServerMessages([]);
    setStale(false);
    try {
      await save.mutateAsync({ planUnit, values: input });
      notifySuccess(planUnit ? "Unit updated successfully" : "Unit added to study plan successfully");
      onDone();
    } catch (error) {
      const failure = classifyError(error);
      const title = "Unit Assignment Error";
      if (failure.kind === "validation") {
        notifyError(title, "Please check your form inputs - some fields have validation errors.");
        setServerMessages(applyFieldErrors(failure.fields, setError, FIELDS));
      } else if (failure.kind === "notFound") notifyError(title, "Study plan not found. Please refresh the page and try again.");
      else if (failure.kind === "duplicate") notifyError(title, "This unit is already assigned to this study plan.");
      else if (failure.kind === "unauthorized") notifyError(title, "You are logged out. Logging in again...");
      else if (failure.kind === "stale") {
        setStale(true);
        notifyError(STALE_TITLE, STALE_MESSAGE);
      } else notifyError(title, ("message" in failure && failure.message) || "Unable to save the unit.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {stale ? (
          <Notice color="yellow" title={STALE_TITLE} role="alert">
            {STALE_MESSAGE}
          </Notice>
        ) : null}
        <Group grow align="flex-start">
          <FormPicker
            control={control}
            name="unitId"
            label="Unit"
            placeholder="Select a unit"
            searchable
            withAsterisk
            data={unitChoices}
            disabled={!adding}
            error={formState.errors.unitId?.message}
            nothingFoundMessage="No units available"
          />
          <FormSelect
            control={control}
            name="yearLevel"
            label="Year Level"
            data={["1", "2", "3", "4"].map((v) => ({ value: v, label: `Year ${v}` }))}
            fallback="1"
            numeric
            error={formState.errors.yearLevel?.message}
          />
        </Group>
        {unit ? (
          <Group gap="xs">
            <Tag variant="light">Nominal Hours: {nominal}</Tag>
            <Tag variant="light" color={unit.isCore ? "indigo" : "grape"}>
              {unit.isCore ? "Core" : "Elective"}
            </Tag>
          </Group>
        ) : null}
        <Text fw={600}>Actual Delivery Hours</Text>
        <HourInputs control={control} fields={ACTUAL_FIELDS} errors={formState.errors} />
        <Group gap="xs">
          <Tag variant="outline">Total Actual: {hours(actual)}</Tag>
          <Tag variant="outline" color="teal">
            Balance Hours: {hours(balance)}
          </Tag>
        </Group>
        <Text fw={600}>Balance Distribution (Self Directed)</Text>
        <HourInputs control={control} fields={BALANCE_FIELDS} errors={formState.errors} />
        {Math.abs(distributed - balance) > TOLERANCE ? (
          <Notice color="yellow" variant="light" data-testid="balance-warning">
            Balance distribution mismatch: {hours(distributed)} hours distributed, but {hours(balance)} hours available
          </Notice>
        ) : null}
        {adding && existing.length > 0 ? <FormSelect control={control} name="insertPosition" label="Insert Position" data={positions} fallback="end" /> : null}
        <FormSwitch control={control} name="isCluster" label="Cluster Delivery" />
        {values.isCluster ? (
          <FormAutocomplete
            control={control}
            name="clusterGroup"
            label="Cluster Group"
            placeholder="New cluster name or choose an existing one"
            data={clusterNames.data ?? []}
            maxLength={50}
            error={formState.errors.clusterGroup?.message}
          />
        ) : null}
        <FormErrorList messages={serverMessages} />
        <FormActions onCancel={onDone} submitLabel={planUnit ? "Update Unit" : "Add Unit"} loading={save.isPending} />
      </Stack>
    </form>
  );
}

function HourInputs({
  control,
  fields,
  errors,
}: {
  control: Control<PlanUnitFormValues, unknown, PlanUnitInput>;
  fields: readonly (readonly [HourField, string, string])[];
  errors: FieldErrors<PlanUnitFormValues>;
}) {
  return (
    <Paper withBorder p="sm">
      <SimpleGrid cols={{ base: 1, sm: fields.length }}>
        {fields.map(([name, label]) => (
          <FormNumber key={name} control={control} name={name} label={label} min={0} step={0.25} decimalScale={2} error={errors[name]?.message} />
        ))}
      </SimpleGrid>
    </Paper>
  );
}
