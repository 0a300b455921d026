import { screen, within } from "@testing-library/react";
import { renderWithProviders } from "@/test/render";
import { DataTable } from "./DataTable";

test("DataTable: a header of the labels, a row a record, an actions column named by aria-label", () => {
  renderWithProviders(
    <DataTable
      aria-label="Rooms"
      rows={[
        { id: "1", code: "R1" },
        { id: "2", code: "R2" },
      ]}
      rowKey={(r) => r.id}
      rowProps={() => ({ "data-testid": "room-row" })}
      columns={[
        { label: "Code", cell: (r) => r.code },
        { label: "Actions", hideLabel: true, cell: (r) => `edit ${r.code}` },
      ]}
    />,
  );
  const table = screen.getByRole("table", { name: "Rooms" });
  expect(
    within(table)
      .getAllByRole("columnheader")
      .map((th) => th.textContent),
  ).toEqual(["Code", ""]);
  expect(within(table).getByRole("columnheader", { name: "Actions" })).toBeInTheDocument();
  expect(screen.getAllByTestId("room-row").map((tr) => tr.textContent)).toEqual(["R1edit R1", "R2edit R2"]);
});
