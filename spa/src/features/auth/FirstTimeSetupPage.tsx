import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Loader, Stack, Stepper, Text } from "@mantine/core";
import { IconChartBar, IconClock, IconShieldLock, IconUsers } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { ApiError } from "@/lib/api";
import { notifyError, notifyInfo } from "@/lib/notify";
import { AccountSetupForm } from "./AccountSetupForm";
import { AuthHeading, EmailInput } from "@/components/AuthFields";
import { AuthLayout, type Feature } from "./AuthLayout";
import { useFirstTimeLogin } from "./api";
import { firstTimeSchema, type FirstTimeValues } from "./schemas";

export const FIRST_TIME_FEATURES: Feature[] = [
  { title: "Multi-factor authentication", text: "Your account is protected by a password and an authenticator app.", icon: IconShieldLock },
  { title: "Advanced scheduling management", text: "Build block group timetables with conflict detection.", icon: IconClock },
  { title: "Real-time teacher workload tracking", text: "See every teacher's allocation as it changes.", icon: IconUsers },
  { title: "Reporting tools", text: "Generate delivery, workload and compliance reports.", icon: IconChartBar },
];

/** The toast for a failed first-time check (docs/behaviour/errors.md §9). */
export function firstTimeFailure(error: unknown): { title: string; message: string } {
  const message = error instanceof ApiError ? (error.serverMessage ?? error.message) : error instanceof Error ? error.message : "";
  if (message.includes("User not found")) {
    return { title: "Account lookup failed", message: "No account found with this email address. Please contact your administrator." };
  }
  if (error instanceof ApiError) return { title: "Error", message: error.serverMessage || "Failed to check account status" };
  return { title: "Error", message: message || "An error occurred" };
}

export const INVITATION_INVALID =
  "This invitation link is not valid any more: it may have been used, replaced or expired. Ask your administrator for a new one.";

/**
 * First-time setup (/setup, /first-time, and the invitation link /auth/setup?token=...): the invitation is
 * checked, then password and two-factor setup. Without a token the email step only recognises accounts
 * that are already set up (ADR 0005).
 */
export default function FirstTimeSetupPage() {
  const [userId, setUserId] = useState<string | null>(null);
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [invitation, setInvitation] = useState<"checking" | "invalid" | null>(token ? "checking" : null);
  // An invitee of a domain that requires single sign-on (ADR 0024): no setup, the provider's button instead.
  const [sso, setSso] = useState<{ name: string; startUrl: string; message: string } | null>(null);
  const navigate = useNavigate();
  const check = useFirstTimeLogin();
  const checked = useRef(false);

  useEffect(() => {
    if (!token || checked.current) return;
    checked.current = true;
    check
      .mutateAsync({ token })
      .then((answer) => {
        if (answer.requiresSetup && answer.userId) {
          setUserId(answer.userId);
          setInvitation(null);
        } else if (answer.ssoStartUrl && answer.ssoProviderName) {
          setSso({ name: answer.ssoProviderName, startUrl: answer.ssoStartUrl, message: answer.message });
          setInvitation(null);
        } else setInvitation("invalid");
      })
      .catch(() => setInvitation("invalid"));
  }, [token, check]);
  const form = useForm<FirstTimeValues>({ resolver: zodResolver(firstTimeSchema), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      const answer = await check.mutateAsync(email);
      if (answer.hasPassword) {
        notifyInfo("Account already set up", answer.message || "Please sign in with your password.");
        navigate("/auth");
        return;
      }
      if (answer.requiresSetup && answer.userId) setUserId(answer.userId);
      else notifyError("Error", answer.message || "Failed to check account status");
    } catch (error) {
      const toast = firstTimeFailure(error);
      notifyError(toast.title, toast.message);
    }
  });

  return (
    <AuthLayout heading="Welcome to Blockplan" intro="Set up your account to start planning courses and timetables." features={FIRST_TIME_FEATURES}>
      <Card withBorder radius="md" padding="xl" shadow="sm">
        <Stepper active={userId ? 1 : 0} size="sm" mb="lg" allowNextStepsSelect={false}>
          <Stepper.Step label="Verify email" />
          <Stepper.Step label="Secure account" />
        </Stepper>
        {invitation === "checking" ? (
          <Stack align="center" py="md">
            <Loader size="sm" />
            <Text size="sm">Checking your invitation...</Text>
          </Stack>
        ) : invitation === "invalid" ? (
          <Alert color="red" title="Invitation not valid" role="alert">
            {INVITATION_INVALID}
          </Alert>
        ) : sso ? (
          <Stack>
            <AuthHeading title="Sign in with your organization">{sso.message}</AuthHeading>
            <Button component="a" href={sso.startUrl} fullWidth>
              Sign in with {sso.name}
            </Button>
          </Stack>
        ) : userId ? (
          <Stack>
            <AuthHeading title="Secure Your Account">Create a password and set up two-factor authentication.</AuthHeading>
            <AccountSetupForm userId={userId} onBack={() => navigate("/auth")} />
          </Stack>
        ) : (
          <form onSubmit={onSubmit} noValidate aria-label="First time setup">
            <Stack>
              <AuthHeading title="First Time Setup">Enter the email address your administrator registered for you.</AuthHeading>
              <EmailInput autoComplete="email" error={errors.email?.message} {...form.register("email")} />
              <Button type="submit" loading={isSubmitting} fullWidth>
                Continue
              </Button>
            </Stack>
          </form>
        )}
        <Button variant="subtle" mt="md" fullWidth onClick={() => navigate("/auth")}>
          Back to regular login
        </Button>
      </Card>
    </AuthLayout>
  );
}
