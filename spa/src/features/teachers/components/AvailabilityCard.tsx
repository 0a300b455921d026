import { Button, Group, MultiSelect, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from "@mantine/core";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { DetailSection } from "@/components/DetailPage";
import { notifyError, notifySuccess } from "@/components/Notify";
import { ApiError } from "@/lib/api";
import { useCampusOptions } from "@/lib/entities/campuses";
import {
  type Availability,
  type AvailabilityBody,
  CELL_COLOURS,
  CELL_LABELS,
  type Cell,
  DAYS,
  type Grid,
  gridOf,
  LEVELS,
  patternOf,
  SLOTS,
  slotTime,
  useAvailability,
  useSaveAvailability,
} from "../api/availability";

const BRUSHES: Cell[] = ["on", "off", ...LEVELS];
const WEEKLY = "weekly";

type Variant = { name: string; startDate: string; endDate: string; grid: Grid };
type Draft = {
  grid: Grid;
  variants: Variant[];
  maxHoursPerDay: number | string;
  maxHoursPerWeek: number | string;
  maxDaysPerWeek: number | string;
  campusIds: string[];
  preferredCampusId: string | null;
  preferredCampusLevel: string;
};

const draftOf = (a: Availability): Draft => ({
  grid: gridOf(a.windows, a.preferences),
  variants: a.variants.map((v) => ({ name: v.name, startDate: v.startDate, endDate: v.endDate, grid: gridOf(v.windows, []) })),
  maxHoursPerDay: a.maxHoursPerDay ?? "",
  maxHoursPerWeek: a.maxHoursPerWeek ?? "",
  maxDaysPerWeek: a.maxDaysPerWeek ?? "",
  campusIds: a.campusIds,
  preferredCampusId: a.preferredCampusId ?? null,
  preferredCampusLevel: a.preferredCampusLevel,
});

const numberOrNull = (v: number | string) => (v === "" || v === null ? null : Number(v));

function bodyOf(d: Draft): AvailabilityBody {
  const { windows, preferences } = patternOf(d.grid);
  return {
    windows,
    preferences,
    variants: d.variants.map((v) => ({ name: v.name, startDate: v.startDate, endDate: v.endDate, windows: patternOf(v.grid).windows })),
    maxHoursPerDay: numberOrNull(d.maxHoursPerDay),
    maxHoursPerWeek: numberOrNull(d.maxHoursPerWeek),
    maxDaysPerWeek: numberOrNull(d.maxDaysPerWeek),
    campusIds: d.campusIds,
    preferredCampusId: d.preferredCampusId,
    preferredCampusLevel: d.preferredCampusLevel,
  } as AvailabilityBody;
}

/**
 * The teacher page's Availability card (ADR 0027): a weekly grid of half hours (07:00–22:00, Monday–Sunday) to paint
 * with a brush (available, unavailable, or a preference) by dragging across cells, or with the keyboard (arrow keys move,
 * Space or Enter paints); date-range variants that replace the weekly pattern; limits; campuses. Saved with If-Match.
 */
export function AvailabilityCard({ teacherId }: { teacherId: string }) {
  const query = useAvailability(teacherId);
  const save = useSaveAvailability(teacherId);
  const campuses = useCampusOptions();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [brush, setBrush] = useState<Cell>("on");
  const [editing, setEditing] = useState(WEEKLY);
  const painting = useRef(false);
  const last = useRef<[number, number] | null>(null);
  const loaded = query.data;

  useEffect(() => {
    if (loaded) setDraft(draftOf(loaded));
  }, [loaded]);
  useEffect(() => {
    const stop = () => {
      painting.current = false;
    };
    window.addEventListener("pointerup", stop);
    return () => window.removeEventListener("pointerup", stop);
  }, []);

  if (!loaded || !draft) return null;
  const variantIndex = editing === WEEKLY ? -1 : Number(editing);
  const grid = variantIndex < 0 ? draft.grid : (draft.variants[variantIndex]?.grid ?? {});
  // A variant holds availability only: its brush paints available or not.
  const effective: Cell = variantIndex >= 0 && brush !== "off" ? "on" : brush;

  const paint = (day: number, slot: number, from: [number, number] | null = null) => {
    // A fast drag skips cells between two pointer events: paint the rectangle from the last cell painted.
    const [d0, s0] = from ?? [day, slot];
    const cells: string[] = [];
    for (let d = Math.min(d0, day); d <= Math.max(d0, day); d++) for (let s = Math.min(s0, slot); s <= Math.max(s0, slot); s++) cells.push(`${d}:${s}`);
    last.current = [day, slot];
    // From the latest draft: several pointer events of one drag can arrive before a render.
    const apply = (g: Grid): Grid => {
      if (cells.every((k) => (g[k] ?? "off") === effective)) return g;
      const next = { ...g };
      for (const k of cells) {
        if (effective === "off") delete next[k];
        else next[k] = effective;
      }
      return next;
    };
    setDraft((d) => {
      if (!d) return d;
      if (variantIndex < 0) return { ...d, grid: apply(d.grid) };
      return { ...d, variants: d.variants.map((v, i) => (i === variantIndex ? { ...v, grid: apply(v.grid) } : v)) };
    });
  };
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, day: number, slot: number) => {
    const moves: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    const d = Math.min(6, Math.max(0, day + move[0]));
    const s = Math.min(SLOTS[SLOTS.length - 1], Math.max(SLOTS[0], slot + move[1]));
    document.querySelector<HTMLButtonElement>(`[data-cell="${d}:${s}"]`)?.focus();
    if (e.shiftKey) paint(d, s);
  };
  const submit = () =>
    save.mutate(
      { body: bodyOf(draft), updatedAt: loaded.updatedAt },
      {
        onSuccess: () => notifySuccess("Availability saved"),
        onError: (err) =>
          notifyError(
            "Availability not saved",
            err instanceof ApiError && err.status === 412 ? "Someone else changed this availability; it has been reloaded." : (err as Error).message,
          ),
      },
    );
  const campusData = (campuses.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const patterns = [
    { value: WEEKLY, label: "Weekly pattern" },
    ...draft.variants.map((v, i) => ({ value: String(i), label: v.name || `Date range ${i + 1}` })),
  ];
  const variant = variantIndex >= 0 ? draft.variants[variantIndex] : null;
  const setVariant = (patch: Partial<Variant>) =>
    setDraft((d) => (d ? { ...d, variants: d.variants.map((v, i) => (i === variantIndex ? { ...v, ...patch } : v)) } : d));

  return (
    <DetailSection
      title="Availability"
      mb="md"
      data-testid="teacher-availability"
      actions={
        <Button onClick={submit} loading={save.isPending}>
          Save Availability
        </Button>
      }
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {loaded.custom ? "Painted pattern." : `From the form's "${loaded.availability}" availability; paint to change it.`} Choose a brush, then drag across
          the hours (or use the arrow keys and press Space).
        </Text>
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            aria-label="Brush"
            value={brush}
            onChange={(v) => setBrush(v as Cell)}
            data={BRUSHES.map((b) => ({ value: b, label: CELL_LABELS[b] }))}
          />
          <Select
            label="Editing"
            aria-label="Editing"
            data={patterns}
            value={editing}
            onChange={(v) => setEditing(v ?? WEEKLY)}
            allowDeselect={false}
            w={200}
          />
          <Button
            variant="light"
            onClick={() => {
              setDraft({
                ...draft,
                variants: [...draft.variants, { name: `Date range ${draft.variants.length + 1}`, startDate: "", endDate: "", grid: { ...draft.grid } }],
              });
              setEditing(String(draft.variants.length));
            }}
          >
            Add Date Range
          </Button>
        </Group>
        {variant && (
          <Group gap="sm" align="flex-end">
            <TextInput label="Name" value={variant.name} onChange={(e) => setVariant({ name: e.currentTarget.value })} />
            <TextInput label="From" type="date" value={variant.startDate} onChange={(e) => setVariant({ startDate: e.currentTarget.value })} />
            <TextInput label="To" type="date" value={variant.endDate} onChange={(e) => setVariant({ endDate: e.currentTarget.value })} />
            <Button
              variant="subtle"
              color="red"
              onClick={() => {
                setDraft({ ...draft, variants: draft.variants.filter((_, i) => i !== variantIndex) });
                setEditing(WEEKLY);
              }}
            >
              Remove Date Range
            </Button>
          </Group>
        )}
        <div style={{ overflowX: "auto" }}>
          <table style={{ borderCollapse: "collapse", userSelect: "none", touchAction: "none" }} aria-label="Weekly availability">
            <thead>
              <tr>
                <th scope="col">
                  <Text size="xs">Time</Text>
                </th>
                {DAYS.map((d) => (
                  <th key={d} scope="col">
                    <Text size="xs">{d.slice(0, 3)}</Text>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {SLOTS.map((slot) => (
                <tr key={slot}>
                  <th scope="row" style={{ paddingRight: 6 }}>
                    <Text size="xs" c="dimmed">
                      {slot % 2 === 0 ? slotTime(slot) : ""}
                    </Text>
                  </th>
                  {DAYS.map((dayName, day) => {
                    const cell = grid[`${day}:${slot}`] ?? "off";
                    return (
                      <td key={dayName} style={{ padding: 0 }}>
                        <button
                          type="button"
                          data-cell={`${day}:${slot}`}
                          data-state={cell}
                          aria-label={`${dayName} ${slotTime(slot)}–${slotTime(slot + 1)}: ${CELL_LABELS[cell]}`}
                          aria-pressed={cell !== "off"}
                          onPointerDown={(e) => {
                            e.preventDefault();
                            painting.current = true;
                            paint(day, slot);
                          }}
                          onPointerEnter={() => painting.current && paint(day, slot, last.current)}
                          onKeyDown={(e) => onKey(e, day, slot)}
                          onClick={(e) => {
                            if (e.detail === 0) paint(day, slot); // keyboard: Space or Enter
                          }}
                          style={{
                            display: "block",
                            width: 56,
                            height: 12,
                            border: "1px solid var(--mantine-color-gray-4)",
                            background: CELL_COLOURS[cell],
                            cursor: "crosshair",
                            padding: 0,
                          }}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Group gap="sm" align="flex-end">
          <NumberInput
            label="Max Hours per Day"
            min={0.5}
            max={24}
            step={0.5}
            value={draft.maxHoursPerDay}
            onChange={(v) => setDraft({ ...draft, maxHoursPerDay: v })}
            w={160}
          />
          <NumberInput
            label="Max Hours per Week"
            min={0.5}
            max={80}
            step={0.5}
            value={draft.maxHoursPerWeek}
            onChange={(v) => setDraft({ ...draft, maxHoursPerWeek: v })}
            w={160}
          />
          <NumberInput
            label="Max Days per Week"
            min={1}
            max={7}
            value={draft.maxDaysPerWeek}
            onChange={(v) => setDraft({ ...draft, maxDaysPerWeek: v })}
            w={160}
          />
        </Group>
        <Group gap="sm" align="flex-end">
          <MultiSelect
            label="Teaches at"
            placeholder={draft.campusIds.length ? undefined : "Every campus"}
            data={campusData}
            value={draft.campusIds}
            onChange={(v) => setDraft({ ...draft, campusIds: v })}
            w={320}
          />
          <Select
            label="Preferred Campus"
            data={campusData}
            value={draft.preferredCampusId}
            onChange={(v) => setDraft({ ...draft, preferredCampusId: v })}
            clearable
            w={200}
          />
          <Select
            label="Campus Preference"
            data={LEVELS.map((l) => ({ value: l, label: CELL_LABELS[l] }))}
            value={draft.preferredCampusLevel}
            onChange={(v) => setDraft({ ...draft, preferredCampusLevel: v ?? "preferred" })}
            allowDeselect={false}
            w={200}
          />
        </Group>
      </Stack>
    </DetailSection>
  );
}
