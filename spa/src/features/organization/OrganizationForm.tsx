import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Stack, TextInput, Textarea } from "@mantine/core";
import { useForm } from "react-hook-form";
import { fieldErrors } from "../../lib/api";
import { organizationFormSchema, type Organization, type OrganizationFormValues } from "./api";

/** The organization details form (platform.md §5): name and domain required. */
export function OrganizationForm({
  organization,
  onSubmit,
  onCancel,
}: {
  organization?: Organization | null;
  onSubmit: (values: OrganizationFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<OrganizationFormValues>({
    resolver: zodResolver(organizationFormSchema),
    defaultValues: {
      name: organization?.name ?? "",
      domain: organization?.domain ?? "",
      address: organization?.address ?? "",
      phone: organization?.phone ?? "",
      website: organization?.website ?? "",
    },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      for (const [key, message] of Object.entries(fieldErrors(error))) {
        form.setError(key as keyof OrganizationFormValues, { message });
      }
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Organization details">
      <Stack>
        <TextInput label="Organization Name" withAsterisk error={errors.name?.message} {...form.register("name")} />
        <TextInput
          label="Domain"
          withAsterisk
          placeholder="example.edu.au"
          description="Users with this domain in their email can join the organization"
          error={errors.domain?.message}
          {...form.register("domain")}
        />
        <Textarea label="Address" rows={3} {...form.register("address")} />
        <TextInput label="Phone" {...form.register("phone")} />
        <TextInput label="Website" placeholder="https://" {...form.register("website")} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {organization ? "Save Changes" : "Create Organization"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
