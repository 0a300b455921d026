import { useEffect, useRef, useState } from "react";

/**
 * The state every create/edit dialog keeps besides its form: the record being edited (replaced by the
 * fresh one after a 412), the server's messages for the "Form Validation Errors" list, and whether the
 * last save was stale. Opening the dialog resets all three and the form.
 *
 * `reset` is react-hook-form's reset; `toValues` turns a record (or none, for create) into form values.
 */
export function useRecordDialog<T, V>(opened: boolean, record: T | null | undefined, reset: (values: V) => void, toValues: (record: T | null | undefined) => V) {
  const [current, setCurrent] = useState<T | null>(record ?? null);
  const [serverMessages, setServerMessages] = useState<string[]>([]);
  const [stale, setStale] = useState(false);

  // Load the record when the dialog opens (or another record is opened), not when the open record is
  // refreshed by a live update: the user keeps editing the version they opened; saving over someone
  // else's change then gets the 412 with the fresh record.
  const recordRef = useRef(record);
  recordRef.current = record;
  const toValuesRef = useRef(toValues);
  toValuesRef.current = toValues;
  const recordId = (record as { id?: unknown } | null | undefined)?.id ?? null;
  useEffect(() => {
    if (opened) {
      const opening = recordRef.current;
      setCurrent(opening ?? null);
      reset(toValuesRef.current(opening));
      setServerMessages([]);
      setStale(false);
    }
  }, [opened, recordId, reset]);

  return {
    current,
    serverMessages,
    setServerMessages,
    stale,
    setStale,
    /** Before a save: forget the last answer's messages. */
    clearServerState: () => {
      setServerMessages([]);
      setStale(false);
    },
    /** After a 412: edit the fresh record from now on. */
    load: (fresh: T) => {
      setCurrent(fresh);
      reset(toValues(fresh));
    },
  };
}
