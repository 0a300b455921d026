import { screen } from "@testing-library/react";
import { renderWithProviders } from "../test/render";
import { NotFoundPage } from "./guards";

test("the not-found screen names itself", () => {
  renderWithProviders(<NotFoundPage />);
  expect(screen.getByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
});
