import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { Controller, useForm } from "react-hook-form";
import { fieldErrors } from "../../lib/api";
import { addUserSchema, type AddUserValues } from "./api";

/** The Add User form (platform.md §5): first name, last name, email, role User or Admin (default User). */
export function AddUserForm({ onSubmit, onCancel }: { onSubmit: (values: AddUserValues) => Promise<void>; onCancel: () => void }) {
  const form = useForm<AddUserValues>({
    resolver: zodResolver(addUserSchema),
    defaultValues: { firstName: "", lastName: "", email: "", role: "user" },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      for (const [key, message] of Object.entries(fieldErrors(error))) {
        form.setError(key as keyof AddUserValues, { message });
      }
    }
  });
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Add User
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
