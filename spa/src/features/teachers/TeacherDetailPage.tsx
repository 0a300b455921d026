import { ActionIcon, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconEdit, IconPlus, IconTrash } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";
import { useParams } from "react-router";
import { formatDate, hours } from "../../components/Dates";
import { notifyError, notifySuccess } from "../../components/Notify";
import { PageHeader } from "../../components/PageHeader";
import { FullPageLoader, RecordLoadError } from "../../components/States";
import { Tag } from "../../components/Tag";
import {
  AVAILABILITY_LABELS,
  EMPLOYMENT_LABELS,
  useAddTeacherUnit,
  useDeliverySummary,
  useRemoveTeacherUnit,
  useTeacher,
  useTeacherUnits,
  useUnitChoices,
} from "./api/teachers";
import { LeaveCard } from "./components/LeaveCard";
import { TeacherFormModal } from "./components/TeacherFormModal";
import { HistoryPanel } from "../history/HistoryPanel";
import { SubscribeButton } from "../calendar-feeds/SubscribeButton";

/** Teacher detail (/teachers/:id): contact, qualifications, Unit Delivery Summary, Teaching Units. */
export default function TeacherDetailPage() {
  const { id = "" } = useParams();
  const { data: teacher, isLoading, isError, error, refetch } = useTeacher(id);
  const units = useTeacherUnits(id);
  const allUnits = useUnitChoices();
  const [year, setYear] = useState(dayjs().year());
  const summary = useDeliverySummary(id, year);
  const add = useAddTeacherUnit();
  const remove = useRemoveTeacherUnit();
  const [unitId, setUnitId] = useState<string | null>(null);
  const [unitError, setUnitError] = useState<string | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  if (isLoading) return <FullPageLoader />;
  if (isError || !teacher)
    return (
      <RecordLoadError
        error={error}
        message="Failed to load teachers. Please try again."
        onRetry={() => void refetch()}
        back={{ to: "/teachers", label: "Back to Teachers" }}
      />
    );
  const held = new Set((units.data ?? []).map((u) => u.unitId));
  const choices = (allUnits.data ?? []).filter((u) => !held.has(u.id)).map((u) => ({ value: u.id, label: `${u.code} - ${u.name}` }));
  const addUnit = () => {
    if (!unitId) {
      setUnitError("Please select a unit");
      return;
    }
    setUnitError(null);
    add.mutate(
      { teacherId: id, unitId },
      {
        onSuccess: () => {
          notifySuccess("Unit added to teacher");
          setUnitId(null);
        },
        onError: () => notifyError("Error", "Failed to add unit to teacher"),
      },
    );
  };
  const confirmRemove = (uid: string, code: string) =>
    modals.openConfirmModal({
      title: "Remove Teaching Unit",
      children: <Text size="sm">Remove {code} from this teacher's teaching units?</Text>,
      labels: { confirm: "Remove", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        remove.mutate(
          { teacherId: id, unitId: uid },
          { onSuccess: () => notifySuccess("Unit removed from teacher"), onError: () => notifyError("Error", "Failed to remove unit from teacher") },
        ),
    });
  const years = Array.from({ length: 5 }, (_, i) => String(dayjs().year() - 3 + i));

  return (
    <>
      <PageHeader
        title={`${teacher.firstName} ${teacher.lastName}`}
        subtitle={`${teacher.jobTitle || "Teacher"} · ${teacher.employeeId}`}
        actions={
          <>
            <Tag color={teacher.isActive ? "green" : "gray"} size="lg">
              {teacher.isActive ? "Active" : "Inactive"}
            </Tag>
            <SubscribeButton target={{ teacherId: teacher.id }} name={`${teacher.firstName} ${teacher.lastName}`} />
            <Button leftSection={<IconEdit size={16} />} onClick={() => setEditOpen(true)}>
              Edit
            </Button>
          </>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Contact Information
          </Title>
          <SimpleGrid cols={2}>
            <Item label="Email" value={teacher.email} />
            <Item label="Phone" value={teacher.phone || "Not provided"} />
            <Item label="Employment" value={EMPLOYMENT_LABELS[teacher.employmentType] ?? teacher.employmentType} />
            <Item label="Contract Expiry" value={formatDate(teacher.expiryDate, "N/A")} />
            <Item label="Availability" value={AVAILABILITY_LABELS[teacher.availability] ?? teacher.availability} />
            <Item label="Max Weekly Hours" value={String(teacher.maxWeeklyHours)} />
          </SimpleGrid>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Qualifications
          </Title>
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {teacher.qualifications || "No qualifications recorded"}
          </Text>
        </Card>
      </SimpleGrid>
      <LeaveCard teacherId={id} />
      <Card withBorder mb="md" data-testid="delivery-summary">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            Unit Delivery Summary
          </Title>
          <Select label="Year" w={120} data={years} value={String(year)} onChange={(v) => setYear(Number(v ?? dayjs().year()))} allowDeselect={false} />
        </Group>
        {!summary.data?.length ? (
          <Text c="dimmed">No units delivered in {year}.</Text>
        ) : (
          <Table.ScrollContainer minWidth={700}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Unit</Table.Th>
                  <Table.Th>Block Group</Table.Th>
                  <Table.Th>Nominal</Table.Th>
                  <Table.Th>Delivered</Table.Th>
                  <Table.Th>First</Table.Th>
                  <Table.Th>Last</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {summary.data.map((r) => (
                  <Table.Tr key={`${r.unitCode}-${r.blockGroupCode}`}>
                    <Table.Td>
                      {r.unitCode} - {r.unitName}
                    </Table.Td>
                    <Table.Td>{r.blockGroupCode}</Table.Td>
                    <Table.Td>{r.nominalHours}</Table.Td>
                    <Table.Td>{hours(r.actualDeliveryHours)}</Table.Td>
                    <Table.Td>{formatDate(r.firstDeliveryDate)}</Table.Td>
                    <Table.Td>{formatDate(r.lastDeliveryDate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Teaching Units
        </Title>
        <Group align="flex-end" mb="sm">
          <Select label="Add unit" placeholder="Select a unit" searchable data={choices} value={unitId} onChange={setUnitId} error={unitError} w={420} />
          <Button leftSection={<IconPlus size={16} />} onClick={addUnit} loading={add.isPending}>
            Add Unit
          </Button>
        </Group>
        {!units.data?.length ? (
          <Text c="dimmed">No teaching units.</Text>
        ) : (
          <Stack gap="xs">
            {units.data.map((u) => (
              <Group key={u.id} justify="space-between" wrap="nowrap">
                <Text size="sm">
                  <b>{u.unit.code}</b> {u.unit.name} ({u.unit.nominalHours} h) <Tag color="teal">{u.proficiencyLevel}</Tag>
                </Text>
                <ActionIcon variant="light" color="red" aria-label={`Remove ${u.unit.code}`} onClick={() => confirmRemove(u.unitId, u.unit.code)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </Card>
      <TeacherFormModal opened={editOpen} onClose={() => setEditOpen(false)} teacher={teacher} />
      <HistoryPanel id={id} />
    </>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}
