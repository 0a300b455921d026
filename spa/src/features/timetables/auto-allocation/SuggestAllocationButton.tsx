/** The "Suggest allocation" button of the timetables screen: opens the proposal preview for a scope. */
import { Button, type ButtonProps } from "@mantine/core";
import { IconWand } from "@tabler/icons-react";
import { useState } from "react";
import type { AllocationScope, Proposal } from "./api";
import { SuggestAllocationDialog } from "./SuggestAllocationDialog";

export interface SuggestAllocationButtonProps {
  /** Sessions to allocate: ids, a block group, and/or a date range (only unassigned sessions count). */
  scope: AllocationScope;
  disabled?: boolean;
  variant?: ButtonProps["variant"];
  onApplied?: (result: Proposal) => void;
}

export function SuggestAllocationButton({ scope, disabled, variant = "light", onApplied }: SuggestAllocationButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant={variant} leftSection={<IconWand size={16} />} onClick={() => setOpened(true)} disabled={disabled}>
        Suggest allocation
      </Button>
      <SuggestAllocationDialog opened={opened} onClose={() => setOpened(false)} scope={scope} onApplied={onApplied} />
    </>
  );
}
