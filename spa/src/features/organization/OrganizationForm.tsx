import { Stack, TextInput, Textarea } from "@mantine/core";
import { FormActions } from "@/components/FormActions";
import { usePageForm } from "@/components/FormErrors";
import { organizationFormSchema, type Organization, type OrganizationFormValues } from "./api";

/** The organization details form (docs/behaviour/accounts.md §9): name and domain required. */
export function OrganizationForm({
  organization,
  onSubmit,
  onCancel,
}: {
  organization?: Organization | null;
  onSubmit: (values: OrganizationFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const values: OrganizationFormValues = {
    name: organization?.name ?? "",
    domain: organization?.domain ?? "",
    address: organization?.address ?? "",
    phone: organization?.phone ?? "",
    website: organization?.website ?? "",
  };
  const { form, submit } = usePageForm(organizationFormSchema, values, onSubmit);
  const { errors, isSubmitting } = form.formState;
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
        <FormActions onCancel={onCancel} submitLabel={organization ? "Save Changes" : "Create Organization"} loading={isSubmitting} />
      </Stack>
    </form>
  );
}
