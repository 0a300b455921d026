import { PageHeader } from "../../components/PageHeader";

/** Sign-in (/auth): placeholder until the screen lands. */
export default function SignInPage() {
  return <PageHeader title="Sign-in (/auth)" />;
}
