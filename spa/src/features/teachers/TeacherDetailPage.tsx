import { Button, Group, Select, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import dayjs from "dayjs";
import { useState } from "react";
import { useParams } from "react-router";
import { formatDate, hours } from "@/components/Dates";
import { notifyError, notifySuccess } from "@/components/Notify";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { DetailEditButton, DetailField, DetailSection, detailPageFallback } from "@/components/DetailPage";
import { confirmAndMutate, DeleteAction } from "@/components/ListPage";
import { ActiveTag, Tag } from "@/components/Tag";
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
import { AvailabilityCard } from "./components/AvailabilityCard";
import { LeaveCard } from "./components/LeaveCard";
import { TeacherFormModal } from "./components/TeacherFormModal";
import { HistoryPanel } from "@/components/history/HistoryPanel";
import { SubscribeButton } from "@/components/SubscribeButton";
import { PlannerLink } from "@/components/PlannerLink";

/** Teacher detail (/teachers/:id): contact, qualifications, Unit Delivery Summary, Teaching Units. */
export default function TeacherDetailPage() {
  const { id = "" } = useParams();
  const query = useTeacher(id);
  const teacher = query.data;
  const units = useTeacherUnits(id);
  const allUnits = useUnitChoices();
  const [year, setYear] = useState(dayjs().year());
  const summary = useDeliverySummary(id, year);
  const add = useAddTeacherUnit();
  const remove = useRemoveTeacherUnit();
  const [unitId, setUnitId] = useState<string | null>(null);
  const [unitError, setUnitError] = useState<string | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  const fallback = detailPageFallback(query, "Failed to load teachers. Please try again.", { to: "/teachers", label: "Back to Teachers" });
  if (fallback || !teacher) return fallback;
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
    confirmAndMutate(
      remove,
      { teacherId: id, unitId: uid },
      {
        title: "Remove Teaching Unit",
        message: `Remove ${code} from this teacher's teaching units?`,
        confirm: "Remove",
        done: "Unit removed from teacher",
        failed: ["Error", "Failed to remove unit from teacher"],
      },
    );
  const years = Array.from({ length: 5 }, (_, i) => String(dayjs().year() - 3 + i));

  return (
    <>
      <PageHeader
        title={`${teacher.firstName} ${teacher.lastName}`}
        subtitle={`${teacher.jobTitle || "Teacher"} · ${teacher.employeeId}`}
        actions={
          <>
            <ActiveTag active={teacher.isActive} size="lg" />
            <PlannerLink scope="teacher" id={teacher.id} name={`${teacher.firstName} ${teacher.lastName}`} />
            <SubscribeButton target={{ teacherId: teacher.id }} name={`${teacher.firstName} ${teacher.lastName}`} />
            <DetailEditButton onClick={() => setEditOpen(true)} />
          </>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <DetailSection title="Contact Information">
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <DetailField compact label="Email" value={teacher.email} />
            <DetailField compact label="Phone" value={teacher.phone || "Not provided"} />
            <DetailField compact label="Employment" value={EMPLOYMENT_LABELS[teacher.employmentType] ?? teacher.employmentType} />
            <DetailField compact label="Contract Expiry" value={formatDate(teacher.expiryDate, "N/A")} />
            <DetailField compact label="Availability" value={AVAILABILITY_LABELS[teacher.availability] ?? teacher.availability} />
            <DetailField compact label="Max Weekly Hours" value={String(teacher.maxWeeklyHours)} />
          </SimpleGrid>
        </DetailSection>
        <DetailSection title="Qualifications">
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {teacher.qualifications || "No qualifications recorded"}
          </Text>
        </DetailSection>
      </SimpleGrid>
      <AvailabilityCard teacherId={id} />
      <LeaveCard teacherId={id} />
      <DetailSection
        title="Unit Delivery Summary"
        mb="md"
        data-testid="delivery-summary"
        actions={<Select label="Year" w={120} data={years} value={String(year)} onChange={(v) => setYear(Number(v ?? dayjs().year()))} allowDeselect={false} />}
      >
        {!summary.data?.length ? (
          <Text c="dimmed">No units delivered in {year}.</Text>
        ) : (
          <DataTable
            striped
            minWidth={700}
            rows={summary.data}
            rowKey={(r) => `${r.unitCode}-${r.blockGroupCode}`}
            columns={[
              { label: "Unit", cell: (r) => `${r.unitCode} - ${r.unitName}` },
              { label: "Block Group", cell: (r) => r.blockGroupCode },
              { label: "Nominal", cell: (r) => r.nominalHours },
              { label: "Delivered", cell: (r) => hours(r.actualDeliveryHours) },
              { label: "First", cell: (r) => formatDate(r.firstDeliveryDate) },
              { label: "Last", cell: (r) => formatDate(r.lastDeliveryDate) },
            ]}
          />
        )}
      </DetailSection>
      <DetailSection title="Teaching Units">
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
                <DeleteAction label={`Remove ${u.unit.code}`} onClick={() => confirmRemove(u.unitId, u.unit.code)} />
              </Group>
            ))}
          </Stack>
        )}
      </DetailSection>
      <TeacherFormModal opened={editOpen} onClose={() => setEditOpen(false)} teacher={teacher} />
      <HistoryPanel id={id} />
    </>
  );
}
