/** What the record dialogs' tests share: `fillAndSubmit` types into a dialog's fields and presses its button. */
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";

/**
 * Types each text into the field with that label (emptied first; the label as it starts, a required
 * field's ends with its asterisk), then presses the button named `submit`.
 */
export async function fillAndSubmit(fields: Record<string, string>, submit: string) {
  for (const [label, text] of Object.entries(fields)) {
    const input = await screen.findByLabelText((content) => content.startsWith(label));
    await userEvent.clear(input);
    await userEvent.type(input, text);
  }
  await userEvent.click(screen.getByRole("button", { name: submit }));
}
