import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithProviders } from "@/test/render";
import { AddUserForm } from "./AddUserForm";
import { OrganizationForm } from "./OrganizationForm";

// Typing into Mantine inputs with user-event is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });

test("add user: required names, valid email, role defaults to user", async () => {
  const onSubmit = vi.fn(async () => {});
  renderWithProviders(<AddUserForm onSubmit={onSubmit} onCancel={() => {}} />);
  await userEvent.click(screen.getByRole("button", { name: "Add User" }));
  expect(await screen.findByText("First name is required")).toBeInTheDocument();
  expect(screen.getByText("Last name is required")).toBeInTheDocument();
  expect(screen.getByText("Please enter a valid email address")).toBeInTheDocument();
  expect(onSubmit).not.toHaveBeenCalled();

  await userEvent.type(screen.getByLabelText(/First Name/), "Ada");
  await userEvent.type(screen.getByLabelText(/Last Name/), "Lovelace");
  await userEvent.type(screen.getByLabelText(/Email/), "ada@demo.edu.au");
  await userEvent.click(screen.getByRole("button", { name: "Add User" }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  expect(onSubmit.mock.calls[0]).toEqual([{ firstName: "Ada", lastName: "Lovelace", email: "ada@demo.edu.au", role: "user" }]);
});

test("organization form: name and domain required, the domain hint shown", async () => {
  const onSubmit = vi.fn(async () => {});
  renderWithProviders(<OrganizationForm onSubmit={onSubmit} onCancel={() => {}} />);
  expect(screen.getByText("Users with this domain in their email can join the organization")).toBeInTheDocument();
  await userEvent.click(screen.getByRole("button", { name: "Create Organization" }));
  expect(await screen.findByText("Organization name is required")).toBeInTheDocument();
  expect(screen.getByText("Domain is required")).toBeInTheDocument();
  expect(onSubmit).not.toHaveBeenCalled();
  await userEvent.type(screen.getByLabelText(/Organization Name/), "Demo TAFE");
  await userEvent.type(screen.getByLabelText(/Domain/), "demo.edu.au");
  await userEvent.click(screen.getByRole("button", { name: "Create Organization" }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  expect(onSubmit.mock.calls[0]).toMatchObject([{ name: "Demo TAFE", domain: "demo.edu.au" }]);
});
