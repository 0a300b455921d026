import { TextInput } from "@mantine/core";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { z } from "zod";
import { ApiError } from "@/lib/api";
import { renderWithProviders } from "@/test/render";
import { usePageForm } from "./FormErrors";

const schema = z.object({ domain: z.string().trim().min(1, { error: "Domain is required" }) });

function DomainForm({ onSubmit }: { onSubmit: (values: { domain: string }) => Promise<void> }) {
  const { form, submit } = usePageForm(schema, { domain: "" }, onSubmit);
  return (
    <form onSubmit={submit} noValidate>
      <TextInput label="Domain" error={form.formState.errors.domain?.message} {...form.register("domain")} />
      <button type="submit">Save</button>
    </form>
  );
}

describe("usePageForm (ADR 0021)", () => {
  it("checks the schema, hands the values to the page, and puts a refused save's field errors on the fields", async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(400, "Bad Request", { message: "Invalid", errors: [{ path: ["domain"], message: "Domain is taken" }] } as never);
    });
    renderWithProviders(<DomainForm onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Domain is required")).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText("Domain"), "demo.edu.au");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ domain: "demo.edu.au" }));
    expect(await screen.findByText("Domain is taken")).toBeInTheDocument();
  });
});
