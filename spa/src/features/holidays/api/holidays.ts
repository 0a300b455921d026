/** Holidays and term breaks (delivery.md §7): GET (year, type), POST, PUT (If-Match), DELETE. */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import { z } from "zod";
import { apiJson } from "../../../lib/api";
import { roots } from "../../../lib/queryKeys";

export type HolidayType = "public_holiday" | "term_break";
export interface Holiday {
  id: string;
  name: string;
  type: HolidayType;
  startDate: string;
  endDate: string;
  description: string;
  isRecurring: boolean;
  year: number;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}
export const TYPE_LABELS: Record<HolidayType, string> = { public_holiday: "Public Holiday", term_break: "Term Break" };

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

/** Filter years: current year minus 2 to plus 2. Form years: 2 before to 7 after (delivery.md §2). */
export const filterYears = () => Array.from({ length: 5 }, (_, i) => dayjs().year() - 2 + i);
export const formYears = () => Array.from({ length: 10 }, (_, i) => dayjs().year() - 2 + i);

export interface HolidayFilters {
  year: number | null;
  type: HolidayType | null;
}
function listUrl(f: HolidayFilters) {
  const p = new URLSearchParams();
  if (f.year) p.set("year", String(f.year));
  if (f.type) p.set("type", f.type);
  const q = p.toString();
  return `/api/holidays${q ? `?${q}` : ""}`;
}
export const holidaysQueryOptions = (f: HolidayFilters) => queryOptions({ queryKey: [...roots.holidays, "list", f], queryFn: () => apiJson<Holiday[]>(listUrl(f)) });
export const useHolidays = (f: HolidayFilters) => useQuery(holidaysQueryOptions(f));
export const fetchHoliday = (id: string) => apiJson<Holiday>(`/api/holidays/${id}`);

export function useSaveHoliday() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ holiday, values }: { holiday?: Holiday | null; values: HolidayInput }) =>
      holiday
        ? apiJson<Holiday>(`/api/holidays/${holiday.id}`, { method: "PUT", json: values, headers: { "If-Match": holiday.updatedAt } })
        : apiJson<Holiday>("/api/holidays", { method: "POST", json: values }),
    onSettled: () => Promise.all([roots.holidays, roots.timetables].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}
export function useDeleteHoliday() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<void>(`/api/holidays/${id}`, { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: roots.holidays }),
  });
}
