import { ActionIcon, Button, Group, Select, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconArrowsShuffle, IconBeach, IconBuildingOff, IconCalendarEvent, IconDownload } from "@tabler/icons-react";
import { useState } from "react";
import { formatDateLong } from "@/components/Dates";
import { AddButton, confirmAndMutate, DeleteAction, EditAction, ListStates, RecordCard, useEditDialog } from "@/components/ListPage";
import { PageHeader } from "@/components/PageHeader";
import { CardGridSkeleton, EmptyState, ErrorState } from "@/components/States";
import { Tag } from "@/components/Tag";
import { filterYears, TYPE_LABELS, useDeleteHoliday, useHolidays, type Holiday, type HolidayFilters, type HolidayType } from "./api/holidays";
import { HolidayFormModal } from "./components/HolidayFormModal";
import { ImportPublicHolidaysModal } from "./components/ImportPublicHolidaysModal";
import { openReplan } from "@/lib/replan";
import { CampusClosureModal } from "./components/CampusClosureModal";

/** Holidays and term breaks (/holidays): docs/behaviour/terms-and-holidays.md §1. */
export default function HolidaysPage() {
  const [filters, setFilters] = useState<HolidayFilters>({ year: null, type: null });
  const { data, isLoading, isError } = useHolidays(filters);
  const remove = useDeleteHoliday();
  const dialog = useEditDialog<Holiday>();
  const [importing, setImporting] = useState(false);
  const [closing, setClosing] = useState(false);
  const confirmDelete = (h: Holiday) =>
    confirmAndMutate(remove, h.id, {
      title: "Delete Holiday",
      message: `Are you sure you want to delete the holiday "${h.name}"? You can undo it from the message that follows or from History.`,
      done: "Holiday deleted successfully",
      failed: ["Error", "Failed to delete holiday"],
    });

  return (
    <>
      <PageHeader
        title="Holidays and Term Breaks"
        subtitle="Manage public holidays and school term breaks that timetabling skips"
        actions={
          <>
            <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => setImporting(true)}>
              Import public holidays
            </Button>
            <Button variant="light" color="yellow" leftSection={<IconBuildingOff size={16} />} onClick={() => setClosing(true)}>
              Campus closure
            </Button>
            <AddButton onClick={() => dialog.open(null)}>Add Holiday</AddButton>
          </>
        }
      />
      <ImportPublicHolidaysModal opened={importing} onClose={() => setImporting(false)} />
      <CampusClosureModal opened={closing} onClose={() => setClosing(false)} />
      <Group mb="md">
        <Select
          label="Year"
          w={160}
          data={[{ value: "", label: "All Years" }, ...filterYears().map((y) => ({ value: String(y), label: String(y) }))]}
          value={filters.year ? String(filters.year) : ""}
          onChange={(v) => setFilters((f) => ({ ...f, year: v ? Number(v) : null }))}
          allowDeselect={false}
        />
        <Select
          label="Type"
          w={200}
          data={[
            { value: "", label: "All Types" },
            { value: "public_holiday", label: "Public Holidays" },
            { value: "term_break", label: "Term Breaks" },
          ]}
          value={filters.type ?? ""}
          onChange={(v) => setFilters((f) => ({ ...f, type: (v || null) as HolidayType | null }))}
          allowDeselect={false}
        />
      </Group>
      <ListStates
        rows={data}
        loading={isLoading && <CardGridSkeleton count={6} />}
        failed={isError && <ErrorState message="Failed to load holidays. Please try again." />}
        empty={
          <EmptyState title="No holidays found for the selected filters" action={<AddButton onClick={() => dialog.open(null)}>Add First Holiday</AddButton>} />
        }
      >
        {(holidays) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {holidays.map((h) => (
              <RecordCard
                key={h.id}
                testId="holiday-card"
                actions={
                  <>
                    {h.isActive ? (
                      <ActionIcon variant="light" color="yellow" aria-label={`Re-plan around ${h.name}`} onClick={() => openReplan({ holidayId: h.id })}>
                        <IconArrowsShuffle size={16} />
                      </ActionIcon>
                    ) : null}
                    <EditAction label={`Edit ${h.name}`} onClick={() => dialog.open(h)} />
                    <DeleteAction label={`Delete ${h.name}`} onClick={() => confirmDelete(h)} />
                  </>
                }
              >
                <Group wrap="nowrap" align="flex-start">
                  <ThemeIcon variant="light" color={h.type === "term_break" ? "blue" : "orange"} size="lg" aria-hidden>
                    {h.type === "term_break" ? <IconBeach size={18} /> : <IconCalendarEvent size={18} />}
                  </ThemeIcon>
                  <Stack gap={4} style={{ flex: 1 }}>
                    <Title order={2} size="h5">
                      {h.name}
                    </Title>
                    <Tag color={h.type === "term_break" ? "blue" : "orange"}>{TYPE_LABELS[h.type] ?? h.type}</Tag>
                  </Stack>
                </Group>
                <Text size="sm">
                  {formatDateLong(h.startDate)}
                  {h.endDate && h.endDate !== h.startDate ? ` - ${formatDateLong(h.endDate)}` : ""}
                </Text>
                {h.description ? (
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {h.description}
                  </Text>
                ) : null}
                <Group gap={6}>
                  <Tag color="gray">{h.year}</Tag>
                  {h.isRecurring ? <Tag color="grape">Recurring</Tag> : null}
                  {!h.isActive ? <Tag color="red">Inactive</Tag> : null}
                </Group>
              </RecordCard>
            ))}
          </SimpleGrid>
        )}
      </ListStates>
      <HolidayFormModal opened={dialog.opened} onClose={dialog.close} holiday={dialog.editing} />
    </>
  );
}
