/**
 * Display links on the organization page (admin only): create, name, scope (a campus or the
 * whole organization), group by room or block group, copy the board URL, and revoke.
 */
import { confirmDestructive } from "@/components/ListPage";
import { Badge, Button, Card, CopyButton, Group, SegmentedControl, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { client, errorMessage, fieldErrors } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { FormDialog, preventingDefault } from "@/components/FormDialog";

export type DisplayLink = components["schemas"]["DisplayLinkOut"];
type GroupBy = components["schemas"]["DisplayLinkIn"]["groupBy"];

export const displayLinksQueryOptions = queryOptions({
  queryKey: roots.displayLinks,
  queryFn: async () => {
    const { data } = await client.GET("/api/display-links");
    return data!;
  },
});

const campusesQueryOptions = queryOptions({
  queryKey: roots.campuses,
  queryFn: async () => {
    const { data } = await client.GET("/api/campuses");
    return data!;
  },
});

function CreateDisplayLinkDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const campuses = useQuery({ ...campusesQueryOptions, enabled: opened });
  const [name, setName] = useState("");
  const [campusId, setCampusId] = useState<string | null>(null);
  const [groupBy, setGroupBy] = useState<GroupBy>("room");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: async (): Promise<DisplayLink> => {
      const { data } = await client.POST("/api/display-links", { body: { name, campusId, groupBy } });
      return data!;
    },
    onSuccess: () => {
      notifySuccess("Display link created", "Open its URL on the screen to show the board.");
      queryClient.invalidateQueries({ queryKey: roots.displayLinks });
      setName("");
      setCampusId(null);
      setErrors({});
      onClose();
    },
    onError: (error) => {
      setErrors(fieldErrors(error));
      notifyError("Error", errorMessage(error, "Failed to create display link"));
    },
  });
  const submit = () => {
    if (!name.trim()) {
      setErrors({ name: "Name is required" });
      return;
    }
    create.mutate();
  };
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="New display link"
      onSubmit={preventingDefault(submit)}
      submitLabel="Create link"
      loading={create.isPending}
    >
      <TextInput label="Name" placeholder="Staff room TV" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} />
      <Select
        label="Scope"
        placeholder="Whole organization"
        clearable
        data={(campuses.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        value={campusId}
        onChange={setCampusId}
      />
      <div>
        <Text size="sm" fw={500} mb={4}>
          Group sessions by
        </Text>
        <SegmentedControl
          value={groupBy}
          onChange={(v) => setGroupBy(v as GroupBy)}
          data={[
            { value: "room", label: "Room" },
            { value: "block_group", label: "Block group" },
          ]}
        />
      </div>
    </FormDialog>
  );
}

export function DisplayLinksCard() {
  const queryClient = useQueryClient();
  const links = useQuery(displayLinksQueryOptions);
  const [creating, setCreating] = useState(false);
  const revoke = useMutation({
    mutationFn: async (id: string): Promise<DisplayLink> => {
      const { data } = await client.DELETE("/api/display-links/{link_id}", { params: { path: { link_id: id } } });
      return data!;
    },
    onSuccess: () => {
      notifySuccess("Display link revoked", "Screens showing it have been disconnected.");
      queryClient.invalidateQueries({ queryKey: roots.displayLinks });
    },
    onError: (error) => notifyError("Error", errorMessage(error, "Failed to revoke display link")),
  });
  const confirmRevoke = (link: DisplayLink) =>
    confirmDestructive({
      title: "Revoke display link",
      message: `Screens showing "${link.name}" will stop updating at once. This cannot be undone.`,
      confirm: "Revoke",
      onConfirm: () => revoke.mutate(link.id),
    });

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md">
        <div>
          <Title order={2} size="h4">
            Wall displays
          </Title>
          <Text size="sm" c="dimmed">
            Read-only live timetable boards for screens in staff rooms and corridors.
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>New display link</Button>
      </Group>
      {links.isLoading ? <Text>Loading...</Text> : null}
      {links.data && links.data.length === 0 ? <Text c="dimmed">No display links yet.</Text> : null}
      <Stack gap="sm">
        {(links.data ?? []).map((link) => {
          const url = `${window.location.origin}${link.url}`;
          return (
            <Group key={link.id} justify="space-between" wrap="nowrap" data-testid="display-link-row">
              <div>
                <Group gap="xs">
                  <Text fw={600}>{link.name}</Text>
                  <Badge color={link.isActive ? "green" : "gray"}>{link.isActive ? "Active" : "Revoked"}</Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {link.campus ? link.campus.name : "Whole organization"} · grouped by {link.groupBy === "room" ? "room" : "block group"}
                </Text>
              </div>
              {link.isActive ? (
                <Group gap="xs" wrap="nowrap">
                  <CopyButton value={url}>
                    {({ copied, copy }) => (
                      <Button variant="light" size="xs" onClick={copy}>
                        {copied ? "Copied" : "Copy URL"}
                      </Button>
                    )}
                  </CopyButton>
                  <Button component="a" href={link.url} target="_blank" rel="noreferrer" variant="default" size="xs">
                    Open
                  </Button>
                  <Button color="red" variant="light" size="xs" onClick={() => confirmRevoke(link)}>
                    Revoke
                  </Button>
                </Group>
              ) : null}
            </Group>
          );
        })}
      </Stack>
      <CreateDisplayLinkDialog opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
