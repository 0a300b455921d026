import { zodResolver } from "@hookform/resolvers/zod";
import { Anchor, Button, Card, Checkbox, Divider, PasswordInput, Stack, Tabs, Text } from "@mantine/core";
import { IconChartBar, IconFingerprint, IconKey, IconLogin2, IconSchool, IconUsers } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { Notice } from "@/components/Notice";
import { ApiError, errorMessage } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import { AccountSetupForm } from "./AccountSetupForm";
import { AuthLayout, type Feature } from "./AuthLayout";
import { type SsoDiscovery, useLogin, usePasskeyLogin, useSsoDiscovery } from "./api";
import { AuthenticatorCodeInput, AuthHeading, EmailInput, registerCode } from "@/components/AuthFields";
import { signInSchema, type SignInValues } from "./schemas";
import { SSO_ERROR_TITLE, ssoErrorMessage } from "./ssoMessages";
import { forgetSsoEmail, pageNavigation, rememberSsoEmail, withNext } from "@/lib/ssoSession";
import { isUnreachable, SIGN_IN_UNREACHABLE_TEXT } from "@/lib/reachability";

export const SIGN_IN_FEATURES: Feature[] = [
  {
    title: "Course Management",
    text: "Plan courses, units of competency and study plans for every qualification you deliver.",
    icon: IconSchool,
  },
  {
    title: "Teacher Allocation",
    text: "Smart scheduling with conflict detection and workload optimisation across your teaching team.",
    icon: IconUsers,
  },
  {
    title: "Reports & Document Assembly",
    text: "Automatic report and document generation for audits, timetables and delivery plans.",
    icon: IconChartBar,
  },
];

export const NO_PASSKEYS_TEXT =
  "You don't have any passkeys set up yet. Please use the password login method first, then you can register passkeys in your account settings.";

/** The toast for a failed passkey sign-in (docs/behaviour/errors.md §9). */
export function passkeyLoginFailure(error: unknown): { title: string; message: string } {
  const message = error instanceof ApiError ? (error.serverMessage ?? "") : error instanceof Error ? error.message : "";
  const name = error instanceof Error ? error.name : "";
  const code = (error as { code?: string } | null)?.code ?? "";
  const notAllowed =
    name === "NotAllowedError" ||
    name === "TimeoutError" ||
    code === "ERROR_CEREMONY_ABORTED" ||
    (error as { cause?: { name?: string } } | null)?.cause?.name === "NotAllowedError";
  if (message.includes("No credentials available") || notAllowed) {
    return { title: "No passkeys found", message: NO_PASSKEYS_TEXT };
  }
  return { title: "Passkey login failed", message: message || "An error occurred during passkey authentication" };
}

/** How long the email must stay unchanged before the sign-in page asks whether it signs in with single sign-on. */
export const DISCOVER_DEBOUNCE_MS = 300;

const normalEmail = (value: string | undefined) => (value ?? "").trim().toLowerCase();

/**
 * Single sign-on for the email typed (ADR 0022): discover is asked ~300 ms after the last change and at
 * once when the field loses focus. Answers the discovery only while it is for the email in the field, and
 * only when it names a provider.
 */
function useSsoOffer(email: string): { offer: SsoDiscovery | null; onEmailBlur: (value: string) => void } {
  const [probe, setProbe] = useState("");
  useEffect(() => {
    const timer = window.setTimeout(() => setProbe(normalEmail(email)), DISCOVER_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [email]);
  const discovery = useSsoDiscovery(probe);
  const data = discovery.data;
  const offer = data?.sso && data.providerName && data.startUrl && probe === normalEmail(email) ? data : null;
  return { offer, onEmailBlur: (value) => setProbe(normalEmail(value)) };
}

/** "Sign in with <provider>": remembers the email for the silent re-check, then goes to the provider. */
function SsoOffer({ offer, email }: { offer: SsoDiscovery; email: string }) {
  const name = offer.providerName ?? "";
  const signIn = () => {
    rememberSsoEmail(email);
    // The app keeps no "where the user was headed" for the sign-in page: the server's default ("/") applies.
    pageNavigation.assign(withNext(offer.startUrl ?? "", null));
  };
  return (
    <Stack gap="xs" data-testid="sso-offer">
      {offer.required ? (
        <Text size="sm" fw={500}>
          {`Your organization signs in with ${name}.`}
        </Text>
      ) : null}
      <Button leftSection={<IconLogin2 size={18} aria-hidden />} onClick={signIn} fullWidth>
        {`Sign in with ${name}`}
      </Button>
      <Divider label="or" labelPosition="center" />
    </Stack>
  );
}

function PasswordForm({ onSetup }: { onSetup: (userId: string) => void }) {
  const [needsCode, setNeedsCode] = useState(false);
  const navigate = useNavigate();
  const login = useLogin();
  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: "", password: "", totpCode: "", rememberMe: false },
  });
  const { errors, isSubmitting } = form.formState;
  const email = useWatch({ control: form.control, name: "email" }) ?? "";
  const { offer, onEmailBlur } = useSsoOffer(email);
  // Required single sign-on: the password fields stay (the break-glass administrator signs in with them), quieter.
  const quiet = !!offer?.required;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await login.mutateAsync({
        email: values.email,
        password: values.password,
        totpCode: needsCode && values.totpCode ? values.totpCode : undefined,
        rememberMe: !!values.rememberMe,
      });
      if (result.requiresSetup && result.userId) {
        onSetup(result.userId);
        return;
      }
      if (result.requiresTotp && !result.user) {
        setNeedsCode(true);
        return;
      }
      if (result.user) {
        notifySuccess("Login successful", "Welcome back!");
        navigate("/");
      }
    } catch (error) {
      console.error("Login failed", error);
      // An outage is not a wrong password (ADR 0018).
      if (isUnreachable(error)) notifyError("Server unreachable", SIGN_IN_UNREACHABLE_TEXT);
      else notifyError("Login failed", errorMessage(error, "Login failed"));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in with password">
      <Stack>
        <Text size="sm" c="dimmed">
          Enter your email and password to access the scheduling system
        </Text>
        <EmailInput autoComplete="username" error={errors.email?.message} {...form.register("email", { onBlur: (e) => onEmailBlur(e.target.value) })} />
        {offer ? <SsoOffer offer={offer} email={normalEmail(email)} /> : null}
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          variant={quiet ? "filled" : "default"}
          error={errors.password?.message}
          {...form.register("password")}
        />
        {needsCode ? (
          <AuthenticatorCodeInput
            autoFocus
            description="Enter the 6-digit code from your authenticator app"
            error={errors.totpCode?.message}
            {...registerCode(form)}
          />
        ) : null}
        <Checkbox label="Remember me" {...form.register("rememberMe")} />
        <Button type="submit" loading={isSubmitting} variant={quiet ? "default" : "filled"} fullWidth>
          {needsCode ? "Verify & Sign In" : "Sign In"}
        </Button>
        <Divider />
        <Button variant="subtle" onClick={() => navigate("/setup")}>
          First time logging in?
        </Button>
      </Stack>
    </form>
  );
}

function PasskeyPanel({ onBack }: { onBack: () => void }) {
  const navigate = useNavigate();
  const passkey = usePasskeyLogin();
  const signIn = async () => {
    try {
      await passkey.mutateAsync();
      notifySuccess("Login successful", "Welcome back! You've been authenticated with your passkey.");
      navigate("/");
    } catch (error) {
      const toast = passkeyLoginFailure(error);
      notifyError(toast.title, toast.message);
    }
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Use a passkey saved on this device or a security key to sign in without a password.
      </Text>
      <Button leftSection={<IconFingerprint size={18} />} onClick={signIn} loading={passkey.isPending} fullWidth>
        Sign in with Passkey
      </Button>
      <Button variant="default" onClick={onBack} fullWidth>
        Back to Password Login
      </Button>
    </Stack>
  );
}

/** Sign-in (/auth): Password and Passkey tabs; the Account Setup view when the server asks for setup. */
export default function SignInPage() {
  const [tab, setTab] = useState<string | null>("password");
  const [setupUserId, setSetupUserId] = useState<string | null>(null);
  // A refused single sign-on comes back as /auth?ssoError=<code> (ADR 0022).
  const [params] = useSearchParams();
  const ssoError = params.get("ssoError");
  useEffect(() => {
    // The silent re-check was refused: sign in again by hand, and no more silent re-checks for that email.
    if (ssoError === "recheck") forgetSsoEmail();
  }, [ssoError]);

  return (
    <AuthLayout
      heading="Course planning and timetabling for vocational training"
      intro="Course management, smart scheduling with conflict detection and workload optimisation, and automatic report and document generation."
      features={SIGN_IN_FEATURES}
    >
      <Card withBorder radius="md" padding="xl" shadow="sm">
        {setupUserId ? (
          <Stack>
            <AuthHeading title="Account Setup">Set a password and enable two-factor authentication to secure your account.</AuthHeading>
            <AccountSetupForm userId={setupUserId} onBack={() => setSetupUserId(null)} />
          </Stack>
        ) : (
          <Stack>
            <AuthHeading title="Sign In">Blockplan scheduling system</AuthHeading>
            {ssoError ? (
              <Notice color="red" title={SSO_ERROR_TITLE} role="alert" data-testid="sso-error">
                {ssoErrorMessage(ssoError)}
              </Notice>
            ) : null}
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List grow mb="md">
                <Tabs.Tab value="password" leftSection={<IconKey size={16} />}>
                  Password
                </Tabs.Tab>
                <Tabs.Tab value="passkey" leftSection={<IconFingerprint size={16} />}>
                  Passkey
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="password">
                <PasswordForm onSetup={setSetupUserId} />
              </Tabs.Panel>
              <Tabs.Panel value="passkey">
                <PasskeyPanel onBack={() => setTab("password")} />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </Card>
      <Text size="xs" c="dimmed" ta="center">
        Need help?{" "}
        <Anchor href="mailto:support@blockplan.edu.au" size="xs">
          Contact your administrator
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
