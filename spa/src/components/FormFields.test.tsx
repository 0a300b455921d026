import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm, type UseFormReturn } from "react-hook-form";
import { renderWithProviders } from "@/test/render";
import { choices, DateRangeFields, FormPicker, FormSelect } from "./FormFields";

interface Values {
  campusId: string | null;
  courseId: string;
  yearLevel: number;
  startDate: string;
  endDate: string;
}

let form: UseFormReturn<Values>;

function Fields({ optionalEnd }: { optionalEnd?: string }) {
  form = useForm<Values>({ defaultValues: { campusId: "c1", courseId: "k1", yearLevel: 1, startDate: "", endDate: "" } });
  const { control } = form;
  return (
    <>
      <FormPicker control={control} name="campusId" none={null} label="Campus" clearable data={[{ value: "c1", label: "City" }]} />
      <FormPicker control={control} name="courseId" label="Course" clearable data={[{ value: "k1", label: "ICT30120" }]} />
      <FormSelect control={control} name="yearLevel" label="Year Level" data={["1", "2", "3"]} fallback="1" numeric />
      <DateRangeFields form={form} optionalEnd={optionalEnd} />
    </>
  );
}

describe("bound form fields (ADR 0021)", () => {
  it("choices lists a map of value to label as select options", () => {
    expect(choices({ on_campus: "On Campus", remote: "Remote" })).toEqual([
      { value: "on_campus", label: "On Campus" },
      { value: "remote", label: "Remote" },
    ]);
  });

  it("a cleared picker stores its `none` (null or an empty id); a numeric select stores numbers", async () => {
    renderWithProviders(<Fields />);
    const [campusClear, courseClear] = Array.from(
      document.querySelectorAll<HTMLButtonElement>("button.mantine-InputClearButton-root, .mantine-CloseButton-root"),
    );
    await userEvent.click(campusClear);
    await userEvent.click(courseClear);
    expect(form.getValues("campusId")).toBeNull();
    expect(form.getValues("courseId")).toBe("");
    await userEvent.click(screen.getByRole("combobox", { name: "Year Level" }));
    await userEvent.click(await screen.findByRole("option", { name: "3", hidden: true }));
    expect(form.getValues("yearLevel")).toBe(3);
  });

  it("the period's dates: both required, or an optional end with its description", () => {
    const marked = (label: string) => !!screen.getByText(label).closest("label")?.querySelector("[class*=required]");
    const { unmount } = renderWithProviders(<Fields />);
    expect([marked("Start Date"), marked("End Date")]).toEqual([true, true]);
    unmount();
    renderWithProviders(<Fields optionalEnd="Optional; calculated when scheduled" />);
    expect([marked("Start Date"), marked("End Date")]).toEqual([true, false]);
    expect(screen.getByText("Optional; calculated when scheduled")).toBeInTheDocument();
  });
});
