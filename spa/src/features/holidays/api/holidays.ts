/** Holidays and term breaks (docs/behaviour/terms-and-holidays.md §1): GET (year, type), POST, PUT (If-Match), DELETE. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import { z } from "zod";
import { client } from "@/lib/api";
import type { components } from "@/lib/api-schema";
import { roots } from "@/lib/queryKeys";
import { useRefreshingMutation } from "@/lib/refreshingMutation";

export type Holiday = components["schemas"]["HolidayOut"];
export type HolidayType = NonNullable<components["schemas"]["HolidayFilters"]["type"]>;
/** Keyed by any string: HolidayOut declares `type` as a plain string. */
export const TYPE_LABELS: Record<string, string> = { public_holiday: "Public Holiday", term_break: "Term Break" } satisfies Record<HolidayType, string>;

const isoDate = (message: string) =>
  z
    .string()
    .min(1, message)
    .refine((v) => dayjs(v, "YYYY-MM-DD").isValid(), message);

export const holidaySchema = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(255, "Name must be at most 255 characters"),
    type: z.enum(["public_holiday", "term_break"]),
    startDate: isoDate("Start date is required"),
    endDate: isoDate("End date is required"),
    description: z.string(),
    isRecurring: z.boolean(),
    year: z.coerce.number<unknown>().int(),
    isActive: z.boolean(),
  })
  .refine((v) => !v.startDate || !v.endDate || v.endDate >= v.startDate, { path: ["endDate"], message: "End date must be on or after start date" });
export type HolidayFormValues = z.input<typeof holidaySchema>;
export type HolidayInput = z.output<typeof holidaySchema>;
export const holidayDefaults = (): HolidayFormValues => ({
  name: "",
  type: "public_holiday",
  startDate: "",
  endDate: "",
  description: "",
  isRecurring: false,
  year: dayjs().year(),
  isActive: true,
});

/** Filter years: current year minus 2 to plus 2. Form years: 2 before to 7 after (docs/behaviour/terms-and-holidays.md §1). */
export const filterYears = () => Array.from({ length: 5 }, (_, i) => dayjs().year() - 2 + i);
export const formYears = () => Array.from({ length: 10 }, (_, i) => dayjs().year() - 2 + i);

export interface HolidayFilters {
  year: number | null;
  type: HolidayType | null;
}
async function fetchHolidays(f: HolidayFilters): Promise<Holiday[]> {
  const { data } = await client.GET("/api/holidays", { params: { query: { year: f.year || undefined, type: f.type || undefined } } });
  return data!;
}
export const holidaysQueryOptions = (f: HolidayFilters) => queryOptions({ queryKey: [...roots.holidays, "list", f], queryFn: () => fetchHolidays(f) });
export const useHolidays = (f: HolidayFilters) => useQuery(holidaysQueryOptions(f));
export async function fetchHoliday(id: string): Promise<Holiday> {
  const { data } = await client.GET("/api/holidays/{holiday_id}", { params: { path: { holiday_id: id } } });
  return data!;
}

export function useSaveHoliday() {
  return useRefreshingMutation(
    [roots.holidays, roots.timetables],
    async ({ holiday, values }: { holiday?: Holiday | null; values: HolidayInput }): Promise<Holiday> => {
      const { data } = holiday
        ? await client.PUT("/api/holidays/{holiday_id}", {
            params: { path: { holiday_id: holiday.id } },
            body: values,
            headers: { "If-Match": holiday.updatedAt },
          })
        : await client.POST("/api/holidays", { body: values });
      return data!;
    },
  );
}
export function useDeleteHoliday() {
  return useRefreshingMutation([roots.holidays], async (id: string) => {
    await client.DELETE("/api/holidays/{holiday_id}", { params: { path: { holiday_id: id } } });
  });
}
