import { useEffect, useRef, useState } from "react";
import { notifyError, STALE_MESSAGE, STALE_TITLE } from "./Notify";

/** A field both the user and someone else changed, to different values (ADR 0017). */
export interface StaleField {
  name: string;
  label: string;
  /** The value in the fresh record, as shown. */
  theirs: string;
  /** The value the user typed, as shown. */
  yours: string;
}

export interface StaleOptions<T, V> {
  /** The form's current values (react-hook-form's getValues). */
  getValues: () => V;
  /** The fresh record after a 412. */
  fetchFresh: (record: T) => Promise<T>;
  /** The fields compared after a 412, with their labels as on the form. */
  labels: Partial<Record<keyof V & string, string>>;
  /** How a field's value reads (a select's label for its id); the default shows text, Yes/No, lists. */
  display?: Partial<Record<keyof V & string, (value: unknown) => string>>;
}

export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.length ? value.map(showValue).join(", ") : "(none)";
  return String(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A three-way comparison after a 412: `base` is the record the user opened, `theirs` the fresh one,
 * `yours` the form, over the fields of `labels`. A field only they changed is `taken` (their value goes
 * into the form: the user did not touch it); a field both changed to different values is a `clash`,
 * theirs next to yours, for the user to decide. `merged` is the form with the taken fields.
 */
export function compareStale<V>(
  base: V,
  theirs: V,
  yours: V,
  labels: Partial<Record<string, string>>,
  display: Partial<Record<string, (value: unknown) => string>> = {},
) {
  const clashes: StaleField[] = [];
  const taken: string[] = [];
  const merged = { ...yours } as Record<string, unknown>;
  for (const [name, label] of Object.entries(labels)) {
    if (!label) continue;
    const key = name as keyof V;
    if (same(base[key], theirs[key]) || same(theirs[key], yours[key])) continue;
    if (same(base[key], yours[key])) {
      taken.push(label);
      merged[name] = theirs[key];
      continue;
    }
    const show = display[name] ?? showValue;
    clashes.push({ name, label, theirs: show(theirs[key]), yours: show(yours[key]) });
  }
  return { clashes, taken, merged: merged as V };
}

/**
 * The state every create/edit dialog keeps besides its form: the record being edited, the server's
 * messages for the "Form Validation Errors" list, and what a stale save (412) found. Opening the dialog
 * resets all of it and the form.
 *
 * `reset` is react-hook-form's reset; `toValues` turns a record (or none, for create) into form values.
 *
 * A 412 (docs/behaviour/concurrency.md §3 as amended by ADR 0017): `onStale()` fetches the fresh record and edits it from
 * then on (the next save carries its `If-Match`), keeps what the user typed, takes their values into the
 * fields only they changed, and lists each field both changed, theirs next to yours (`staleFields`).
 * `takeTheirs()` puts their values in those fields too; `keepMine()` saves the form as it is. Attach
 * `formRef` to the dialog's form so that `keepMine()` can submit it.
 */
export function useRecordDialog<T, V>(
  opened: boolean,
  record: T | null | undefined,
  reset: (values: V) => void,
  toValues: (record: T | null | undefined) => V,
  options?: StaleOptions<T, V>,
) {
  const [current, setCurrent] = useState<T | null>(record ?? null);
  const [serverMessages, setServerMessages] = useState<string[]>([]);
  const [stale, setStale] = useState(false);
  const [fields, setFields] = useState<StaleField[]>([]);
  const [taken, setTaken] = useState<string[]>([]);
  const [theirs, setTheirs] = useState<V | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [resubmit, setResubmit] = useState(0);

  // Load the record when the dialog opens (or another record is opened), not when the open record is
  // refreshed by a live update: the user keeps editing the version they opened; saving over someone
  // else's change then gets the 412 with the fresh record.
  const recordRef = useRef(record);
  recordRef.current = record;
  const toValuesRef = useRef(toValues);
  toValuesRef.current = toValues;
  const recordId = (record as { id?: unknown } | null | undefined)?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset the form when the dialog opens or shows another record (recordId), not on every render of that record
  useEffect(() => {
    if (opened) {
      const opening = recordRef.current;
      setCurrent(opening ?? null);
      reset(toValuesRef.current(opening));
      setServerMessages([]);
      setStale(false);
      setFields([]);
      setTaken([]);
      setTheirs(null);
    }
  }, [opened, recordId, reset]);

  // "Keep mine" submits after the render that holds the fresh record, so the save sends its If-Match.
  useEffect(() => {
    if (resubmit) formRef.current?.requestSubmit();
  }, [resubmit]);

  const clearStale = () => {
    setStale(false);
    setFields([]);
    setTaken([]);
    setTheirs(null);
  };

  return {
    current,
    serverMessages,
    setServerMessages,
    stale,
    setStale,
    formRef,
    /** What the 412 found: the fields both changed (theirs vs yours) and the labels of those only they
     * changed, whose values are now in the form. */
    staleFields: fields,
    staleTaken: taken,
    /** Before a save: forget the last answer's messages. */
    clearServerState: () => {
      setServerMessages([]);
      clearStale();
    },
    /** After a 412 without options: edit the fresh record from now on, with its values. */
    load: (fresh: T) => {
      setCurrent(fresh);
      reset(toValues(fresh));
    },
    /** After a 412: fetch the fresh record, keep the typing, list what changed, tell the user. */
    onStale: async () => {
      if (current && options) {
        const fresh = await options.fetchFresh(current);
        const theirValues = toValues(fresh);
        const found = compareStale(toValues(current), theirValues, options.getValues(), options.labels, options.display);
        reset(found.merged);
        setFields(found.clashes);
        setTaken(found.taken);
        setTheirs(theirValues);
        setCurrent(fresh);
      }
      setStale(true);
      notifyError(STALE_TITLE, STALE_MESSAGE);
    },
    /** Their values in the fields both changed; the user's other edits stay. Nothing is saved. */
    takeTheirs: () => {
      if (options && theirs) {
        const merged = { ...options.getValues() };
        for (const f of fields) (merged as Record<string, unknown>)[f.name] = (theirs as Record<string, unknown>)[f.name];
        reset(merged);
      }
      clearStale();
    },
    /** Save the form as it is, over their changes (with the fresh If-Match). */
    keepMine: () => {
      clearStale();
      setResubmit((n) => n + 1);
    },
  };
}

export type RecordDialog = Pick<ReturnType<typeof useRecordDialog>, "stale" | "staleFields" | "staleTaken" | "takeTheirs" | "keepMine">;

/** How a field holding a record's id reads after a 412: that record's `label` (its code, its name), else the value as stored. */
export function showRecord<R extends { id: string }>(records: readonly R[] | undefined, label: (record: R) => string) {
  return (value: unknown) => {
    const found = records?.find((r) => r.id === value);
    return found ? label(found) : showValue(value);
  };
}

/** How a field holding one of a few codes reads after a 412: its label (a status, a type), else the value as stored. */
export const showLabel = (labels: Record<string, string>) => (value: unknown) => labels[String(value)] ?? showValue(value);
