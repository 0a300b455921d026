import { useEffect, useState } from "react";
import { flushSync } from "react-dom";

/**
 * Whether the page is being printed (the browser's print preview, `window.print()`, or print media
 * emulated by a test): a printed timetable is for a classroom door, so the board prints every session of
 * a crowded day instead of its "+n more" card (ADR 0026). `beforeprint` re-renders synchronously
 * (flushSync), so the page the browser snapshots already shows every card.
 */
export function usePrinting(): boolean {
  const [printing, setPrinting] = useState(
    () => typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("print").matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia("print");
    const onMedia = () => setPrinting(query.matches);
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(query.matches);
    query.addEventListener("change", onMedia);
    window.addEventListener("beforeprint", before);
    window.addEventListener("afterprint", after);
    return () => {
      query.removeEventListener("change", onMedia);
      window.removeEventListener("beforeprint", before);
      window.removeEventListener("afterprint", after);
    };
  }, []);
  return printing;
}
