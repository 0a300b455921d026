import { zodResolver } from "@hookform/resolvers/zod";
import { TextInput, Textarea } from "@mantine/core";
import { FormMultiSelect } from "@/components/FormFields";
import { useEffect, useState } from "react";
import { useForm, type FieldErrors, type Path, type UseFormRegister } from "react-hook-form";
import { FormDialog } from "@/components/FormDialog";
import { applyFieldErrors, FormErrorList } from "@/components/FormErrors";
import { classifyError, notifyError, notifySuccess, STALE_MESSAGE, STALE_TITLE } from "@/components/Notify";
import {
  linkedCreateSchema,
  linkedEditSchema,
  useCreateLinked,
  useUpdateLinked,
  type LinkedCreateInput,
  type LinkedEditInput,
  type LinkedGroup,
  type MemberGroup,
} from "../api/linkedGroups";

/** Create Linked Group (docs/behaviour/block-groups.md §5 "Linked group create"). */
export function CreateLinkedModal({
  opened,
  onClose,
  available,
  preselected,
}: {
  opened: boolean;
  onClose: () => void;
  available: MemberGroup[];
  preselected: string[];
}) {
  const create = useCreateLinked();
  const [messages, setMessages] = useState<string[]>([]);
  const { register, control, handleSubmit, reset, setError, formState } = useForm<LinkedCreateInput>({
    resolver: zodResolver(linkedCreateSchema),
    defaultValues: { name: "", description: "", memberBlockGroupIds: [] },
  });
  useEffect(() => {
    if (opened) {
      reset({ name: "", description: "", memberBlockGroupIds: preselected });
      setMessages([]);
    }
  }, [opened, preselected, reset]);
  const onSubmit = handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: () => {
        notifySuccess("Linked group created successfully");
        onClose();
      },
      onError: (e) => {
        const f = classifyError(e);
        if (f.kind === "validation") setMessages(applyFieldErrors(f.fields, setError, ["name", "description", "memberBlockGroupIds"]));
        notifyError(
          "Failed to create linked block group",
          ("message" in f && f.message) || (f.kind === "validation" ? f.messages[0] : "") || "Please try again.",
        );
      },
    }),
  );
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Create Linked Group"
      size="lg"
      onSubmit={onSubmit}
      submitLabel="Create Linked Group"
      loading={create.isPending}
    >
      <NameAndDescription register={register} errors={formState.errors} />
      <FormMultiSelect
        control={control}
        name="memberBlockGroupIds"
        label="Block Groups"
        searchable
        data={available.map((g) => ({ value: g.id, label: `${g.code} - ${g.name}` }))}
        error={formState.errors.memberBlockGroupIds?.message}
      />
      <FormErrorList messages={messages} />
    </FormDialog>
  );
}

/** Edit Linked Group: name and description (docs/behaviour/block-groups.md §5 "Linked group edit"). */
export function EditLinkedModal({ group, onClose }: { group: LinkedGroup | null; onClose: () => void }) {
  const update = useUpdateLinked();
  const { register, handleSubmit, reset, formState } = useForm<LinkedEditInput>({
    resolver: zodResolver(linkedEditSchema),
    defaultValues: { name: "", description: "" },
  });
  useEffect(() => {
    if (group) reset({ name: group.name, description: group.description ?? "" });
  }, [group, reset]);
  const onSubmit = handleSubmit((values) => {
    if (!group) return;
    update.mutate(
      { group, values },
      {
        onSuccess: () => {
          notifySuccess("Linked group updated successfully");
          onClose();
        },
        onError: (e) => {
          const f = classifyError(e);
          if (f.kind === "stale") notifyError(STALE_TITLE, STALE_MESSAGE);
          else notifyError("Failed to update linked block group", ("message" in f && f.message) || "Please try again.");
        },
      },
    );
  });
  return (
    <FormDialog opened={!!group} onClose={onClose} title="Edit Linked Group" onSubmit={onSubmit} submitLabel="Save Changes" loading={update.isPending}>
      <NameAndDescription register={register} errors={formState.errors} />
    </FormDialog>
  );
}

/** The name and description of a linked group, as both dialogs ask for them. */
function NameAndDescription<V extends LinkedEditInput>({ register, errors }: { register: UseFormRegister<V>; errors: FieldErrors<V> }) {
  return (
    <>
      <TextInput label="Name" withAsterisk {...register("name" as Path<V>)} error={(errors as FieldErrors<LinkedEditInput>).name?.message} />
      <Textarea label="Description" autosize minRows={2} {...register("description" as Path<V>)} />
    </>
  );
}
