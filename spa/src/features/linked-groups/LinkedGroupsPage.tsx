import { ActionIcon, Button, Card, Checkbox, Group, SimpleGrid, Stack, Tabs, Text, Title } from "@mantine/core";
import { IconLink, IconX } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { formatDate } from "@/components/Dates";
import { AddButton, confirmAndMutate, DeleteAction, EditAction } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import { Tag } from "@/components/Tag";
import { isSimilarCode, useDeleteLinked, useLinkableGroups, useLinkedGroups, useRemoveMember, type LinkedGroup } from "./api/linkedGroups";
import { CreateLinkedModal, EditLinkedModal } from "./components/LinkedGroupModals";

const MODES: Record<string, string> = { on_campus: "On Campus", remote: "Remote", full_time: "Full Time", part_time: "Part Time" };

/** Linked block groups (/linked-block-groups): docs/behaviour/block-groups.md §5. */
export default function LinkedGroupsPage() {
  const linked = useLinkedGroups();
  const groups = useLinkableGroups();
  const remove = useDeleteLinked();
  const removeMember = useRemoveMember();
  const [createOpen, setCreateOpen] = useState(false);
  const [editing, setEditing] = useState<LinkedGroup | null>(null);
  const [picked, setPicked] = useState<string[]>([]);

  const linkedIds = useMemo(() => new Set((linked.data ?? []).flatMap((l) => l.members.map((m) => m.blockGroupId))), [linked.data]);
  const available = useMemo(() => (groups.data ?? []).filter((g) => !linkedIds.has(g.id)), [groups.data, linkedIds]);
  // Each group's similar codes, named on its card ("similar to which group").
  const similar = useMemo(() => {
    const out = new Map<string, string[]>();
    for (const g of available) {
      const codes = available.filter((o) => isSimilarCode(g.code, o.code)).map((o) => o.code);
      if (codes.length) out.set(g.id, codes);
    }
    return out;
  }, [available]);

  const confirmDelete = (l: LinkedGroup) =>
    confirmAndMutate(remove, l.id, {
      title: "Delete Linked Group",
      message: `Delete the linked group ${l.name}? The block groups themselves are kept.`,
      done: "Linked group deleted successfully",
      failed: ["Error", "Failed to delete linked block group"],
    });
  const confirmRemoveMember = (l: LinkedGroup, blockGroupId: string, code: string) =>
    confirmAndMutate(
      removeMember,
      { id: l.id, blockGroupId },
      {
        title: "Remove Block Group",
        message: `Remove ${code} from ${l.name}?`,
        confirm: "Remove",
        done: "Block group removed from linked group",
        failed: ["Error", "Failed to remove block group"],
      },
    );

  return (
    <>
      <PageHeader
        title="Linked Block Groups"
        subtitle="Block groups delivered together share teachers and rooms without a clash"
        actions={<AddButton onClick={() => setCreateOpen(true)}>Create Linked Group</AddButton>}
      />
      {linked.isLoading || groups.isLoading ? (
        <CardGridSkeleton count={6} />
      ) : linked.isError || groups.isError ? (
        <ErrorState message="Failed to load linked block groups. Please try again." />
      ) : (
        <Tabs defaultValue="linked">
          <Tabs.List mb="md">
            <Tabs.Tab value="linked">Linked Groups ({linked.data?.length ?? 0})</Tabs.Tab>
            <Tabs.Tab value="available">Available Block Groups ({available.length})</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="linked">
            {!linked.data?.length ? (
              <EmptyState title="No linked groups" description="Link two or more block groups that are taught together." />
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                {linked.data.map((l) => (
                  <Card withBorder key={l.id} data-testid="linked-group-card">
                    <Group justify="space-between" mb="xs">
                      <Group gap="xs">
                        <IconLink size={18} aria-hidden />
                        <Title order={2} size="h4">
                          {l.name}
                        </Title>
                      </Group>
                      <Group gap={4}>
                        <EditAction label={`Edit ${l.name}`} onClick={() => setEditing(l)} />
                        <DeleteAction label={`Delete ${l.name}`} onClick={() => confirmDelete(l)} />
                      </Group>
                    </Group>
                    {l.description ? (
                      <Text size="sm" c="dimmed" mb="xs">
                        {l.description}
                      </Text>
                    ) : null}
                    <Stack gap={6}>
                      {l.members.map((m) => (
                        <Group key={m.id} justify="space-between" wrap="nowrap">
                          <Text size="sm">
                            <b>{m.blockGroup.code}</b> {m.blockGroup.name} · {m.blockGroup.cohortSize} students · {formatDate(m.blockGroup.startDate)}
                          </Text>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove ${m.blockGroup.code} from ${l.name}`}
                            onClick={() => confirmRemoveMember(l, m.blockGroupId, m.blockGroup.code)}
                          >
                            <IconX size={14} />
                          </ActionIcon>
                        </Group>
                      ))}
                    </Stack>
                  </Card>
                ))}
              </SimpleGrid>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="available">
            <Group justify="space-between" mb="sm">
              <Text size="sm">{picked.length} selected</Text>
              <Button size="xs" disabled={picked.length < 2} onClick={() => setCreateOpen(true)}>
                Link Selected
              </Button>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {available.map((g) => (
                <Card withBorder key={g.id} data-testid="available-group">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Checkbox
                      label={`${g.code} - ${g.name}`}
                      checked={picked.includes(g.id)}
                      onChange={(e) => {
                        const checked = e.currentTarget.checked;
                        setPicked((p) => (checked ? [...p, g.id] : p.filter((x) => x !== g.id)));
                      }}
                    />
                    {similar.has(g.id) ? (
                      <Tag color="orange" title={`Similar to ${similar.get(g.id)!.join(", ")}`}>
                        Similar code exists
                      </Tag>
                    ) : null}
                  </Group>
                  {similar.has(g.id) ? (
                    <Text size="xs" c="dimmed" mt={4} data-testid="similar-to">
                      Similar to {similar.get(g.id)!.join(", ")}
                    </Text>
                  ) : null}
                  <Group gap={6} mt="xs">
                    <Tag color="cyan">{MODES[g.deliveryMode] ?? g.deliveryMode}</Tag>
                    <Tag color="grape">{MODES[g.studyMode] ?? g.studyMode}</Tag>
                    <Tag color="gray">{g.cohortSize} students</Tag>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          </Tabs.Panel>
        </Tabs>
      )}
      <CreateLinkedModal
        opened={createOpen}
        onClose={() => {
          setCreateOpen(false);
          setPicked([]);
        }}
        available={available}
        preselected={picked}
      />
      <EditLinkedModal group={editing} onClose={() => setEditing(null)} />
    </>
  );
}
