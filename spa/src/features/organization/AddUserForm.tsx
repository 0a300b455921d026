import { Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { Controller } from "react-hook-form";
import { FormActions } from "@/components/FormActions";
import { usePageForm } from "@/components/FormErrors";
import { addUserSchema, type AddUserValues } from "./api";

/** The Add User form (docs/behaviour/accounts.md §9): first name, last name, email, role User or Admin (default User). */
export function AddUserForm({ onSubmit, onCancel }: { onSubmit: (values: AddUserValues) => Promise<void>; onCancel: () => void }) {
  const { form, submit } = usePageForm(addUserSchema, { firstName: "", lastName: "", email: "", role: "user" }, onSubmit);
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={submit} noValidate aria-label="Add user">
      <Stack>
        <SimpleGrid cols={2}>
          <TextInput label="First Name" withAsterisk error={errors.firstName?.message} {...form.register("firstName")} />
          <TextInput label="Last Name" withAsterisk error={errors.lastName?.message} {...form.register("lastName")} />
        </SimpleGrid>
        <TextInput label="Email" type="email" withAsterisk error={errors.email?.message} {...form.register("email")} />
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <Select
              label="Role"
              data={[
                { value: "user", label: "User" },
                { value: "admin", label: "Admin" },
              ]}
              value={field.value ?? "user"}
              onChange={(v) => field.onChange(v ?? "user")}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        <FormActions onCancel={onCancel} submitLabel="Add User" loading={isSubmitting} />
      </Stack>
    </form>
  );
}
