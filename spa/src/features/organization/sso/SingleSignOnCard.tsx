/**
 * Single sign-on on the organization page (admin only, ADR 0022): the organization's OpenID Connect
 * identity provider — the sign-in button's name, issuer, client, email domains, optional or required
 * (with a break-glass administrator who keeps the password sign-in), accounts for new staff, on/off —
 * the redirect URI to register at the provider, "Test connection", save and remove.
 */
import { confirmDestructive } from "@/components/ListPage";
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Input,
  PasswordInput,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import { IconCheck, IconCopy, IconShieldLock } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { FormErrorList } from "@/components/FormErrors";
import { choices, FormPicker, FormSwitch } from "@/components/FormFields";
import { Notice } from "@/components/Notice";
import { defineRecordForm, useRecordForm } from "@/components/RecordFormDialog";
import { StaleChanges } from "@/components/StaleChanges";
import { showLabel, showRecord } from "@/components/useRecordDialog";
import { errorMessage, fieldErrors } from "@/lib/api";
import { notifyError, notifySuccess } from "@/lib/notify";
import { type OrgUser, useAdminUsers } from "../api";
import {
  asSsoRecord,
  fetchSsoConfig,
  type SsoConfig,
  type SsoRecord,
  type SsoFormValues,
  type SsoTestResult,
  ssoFormSchema,
  ssoFormValues,
  useDeleteSso,
  useSaveSso,
  type SsoDomainState,
  useSsoConfig,
  useTestSsoConnection,
  useVerifySsoDomain,
} from "./api";

export const SSO_SECRET_STORED_PLACEHOLDER = "Stored — leave blank to keep";
export const SSO_REDIRECT_HINT = "Register this redirect URI with your identity provider.";
export const SSO_SAVED_TEXT = "Single sign-on saved";
export const SSO_REMOVED_TEXT = "Single sign-on removed";

const MODE_LABELS = { optional: "Optional", required: "Required" };

/** The domains in what was typed into the domains field (separated by commas, spaces or semicolons). */
const splitDomains = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);

const adminLabel = (u: OrgUser) => {
  const name = `${u.firstName} ${u.lastName}`.trim();
  return name ? `${name} (${u.email})` : u.email;
};

/** The organization's provider as a record of the shared record form (ADR 0022). */
const SSO_FORM = defineRecordForm({
  model: {
    schema: ssoFormSchema,
    toValues: (config: SsoRecord | null | undefined) => ssoFormValues(config),
    fetch: async () => ({ ...(await fetchSsoConfig()), id: "sso" }),
    toSave: (config, values) => ({ config, values: values as SsoFormValues }),
  },
  text: {
    create: { saved: SSO_SAVED_TEXT, failed: "Failed to save single sign-on" },
    edit: { saved: SSO_SAVED_TEXT, failed: "Failed to save single sign-on" },
  },
  labels: {
    name: "Provider name",
    issuerUrl: "Issuer URL",
    clientId: "Client ID",
    domains: "Email domains",
    mode: "Mode",
    breakGlassUserId: "Break-glass administrator",
    createAccounts: "Create accounts for new staff",
    enabled: "Enabled",
  },
  // The client secret is never compared after a 412 (write-only), but the server may name it.
  fields: ["name", "issuerUrl", "clientId", "clientSecret", "domains", "mode", "breakGlassUserId", "createAccounts", "enabled"],
});

/** What "Test connection" found: green with the issuer and its endpoints, or red with the reason. */
function TestResult({ result }: { result: SsoTestResult }) {
  if (!result.ok) {
    return (
      <Notice color="red" role="alert" data-testid="sso-test-result" data-ok="false">
        {result.message}
      </Notice>
    );
  }
  const rows: [string, string | null | undefined][] = [
    ["Issuer", result.issuer],
    ["Authorization endpoint", result.authorizationEndpoint],
    ["Token endpoint", result.tokenEndpoint],
    ["Userinfo endpoint", result.userinfoEndpoint],
    ["JWKS URI", result.jwksUri],
  ];
  return (
    <Notice color="green" role="status" data-testid="sso-test-result" data-ok="true">
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {result.message}
        </Text>
        {rows
          .filter(([, value]) => !!value)
          .map(([label, value]) => (
            <Text key={label} size="xs" style={{ wordBreak: "break-all" }}>
              {label}: {value}
            </Text>
          ))}
      </Stack>
    </Notice>
  );
}

/** A value to copy: monospace, with a copy button. */
function CopyableCode({ value, testId }: { value: string; testId?: string }) {
  return (
    <Group wrap="nowrap" gap="xs" mt={4}>
      <Code data-testid={testId} style={{ flex: 1, wordBreak: "break-all", padding: "6px 10px" }}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? "Copied" : "Copy"}>
            <ActionIcon size="lg" variant="light" color={copied ? "teal" : "blue"} onClick={copy} aria-label="Copy">
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

export const SSO_DOMAIN_VERIFIED_TEXT = "Domain verified";

/**
 * Each saved domain's verification (ADR 0024): verified domains are offered on the sign-in page; the others
 * show the TXT record to publish and "Verify now".
 */
function DomainVerification({ domains }: { domains: SsoDomainState[] }) {
  const verify = useVerifySsoDomain();
  const [failed, setFailed] = useState<Record<string, string>>({});
  if (!domains.length) return null;
  const runVerify = async (domain: string) => {
    setFailed(({ [domain]: _gone, ...rest }) => rest);
    try {
      await verify.mutateAsync(domain);
      notifySuccess(SSO_DOMAIN_VERIFIED_TEXT, domain);
    } catch (error) {
      // The field's message says why (no record yet, DNS silent, verified by another organization).
      const reason = fieldErrors(error).domain ?? errorMessage(error, "The domain could not be verified");
      setFailed((all) => ({ ...all, [domain]: reason }));
    }
  };
  return (
    <Stack gap="xs" data-testid="sso-domains">
      <Text size="sm" fw={500}>
        Domain verification
      </Text>
      <Text size="xs" c="dimmed">
        Staff of a domain are offered single sign-on once your organization has proved it owns the domain with a DNS TXT record.
      </Text>
      {domains.map((d) => (
        <Card key={d.domain} withBorder padding="sm" radius="sm" data-testid="sso-domain" data-domain={d.domain} data-verified={String(d.verified)}>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={500}>{d.domain}</Text>
            <Badge color={d.verified ? "teal" : "yellow"} variant="light">
              {d.verified ? "Verified" : "Not verified"}
            </Badge>
          </Group>
          {d.verified ? null : (
            <Stack gap={4} mt="xs">
              <Text size="sm">
                Add a TXT record at <strong>{d.recordName}</strong> with this text:
              </Text>
              <CopyableCode value={d.recordValue} testId="sso-domain-record" />
              {failed[d.domain] ? (
                <Notice color="red" role="alert">
                  {failed[d.domain]}
                </Notice>
              ) : null}
              <Group justify="flex-end">
                <Button size="xs" variant="light" onClick={() => runVerify(d.domain)} loading={verify.isPending && verify.variables === d.domain}>
                  Verify now
                </Button>
              </Group>
            </Stack>
          )}
        </Card>
      ))}
    </Stack>
  );
}

/** The form of the organization's provider; `config` as loaded (configured or not yet). */
export function SingleSignOnForm({ config }: { config: SsoConfig }) {
  const save = useSaveSso();
  const remove = useDeleteSso();
  const test = useTestSsoConnection();
  const users = useAdminUsers();
  const [tested, setTested] = useState<SsoTestResult | null>(null);
  const admins = (users.data ?? []).filter((u) => u.role === "admin" && u.isActive);

  const record = useRecordForm({
    ...SSO_FORM,
    opened: true,
    onClose: () => {},
    record: asSsoRecord(config),
    save: useSaveSso(),
    display: { mode: showLabel(MODE_LABELS), breakGlassUserId: showRecord(users.data, adminLabel) },
    // Edit what was saved from now on: its If-Match, "stored" secret, the secret field blank again.
    onSaved: (saved) => record.dialog.load({ ...saved, id: "sso" }),
  });
  const { form, dialog } = record;
  const { register, control, formState, getValues, setValue } = form;
  // A domain typed but not yet made a tag (no Enter or comma) is saved too. Tags are not made on blur: the
  // error under the field would vanish as the pointer goes down on a button, and the button move away
  // before the click.
  const [domainText, setDomainText] = useState("");
  const onSubmit = (event?: FormEvent) => {
    const typed = splitDomains(domainText);
    if (typed.length) {
      const current = getValues("domains");
      setValue("domains", [...current, ...typed.filter((d) => !current.includes(d))], { shouldDirty: true });
      setDomainText("");
    }
    return record.onSubmit(event);
  };
  const { errors } = formState;
  const mode = useWatch({ control, name: "mode" });
  const stored = !!record.current?.hasClientSecret;

  const runTest = async () => {
    setTested(null);
    try {
      setTested(await test.mutateAsync(getValues("issuerUrl")));
    } catch (error) {
      setTested({ ok: false, message: errorMessage(error, "The connection could not be tested"), signingKeyCount: 0, scopesSupported: [] });
    }
  };

  const confirmRemove = () =>
    confirmDestructive({
      title: "Remove single sign-on",
      message: `Remove single sign-on? Staff will no longer sign in with ${record.current?.name || "the identity provider"}.`,
      confirm: "Remove",
      onConfirm: async () => {
        try {
          await remove.mutateAsync();
          notifySuccess(SSO_REMOVED_TEXT);
        } catch (error) {
          notifyError("Error", errorMessage(error, "Failed to remove single sign-on"));
        }
      },
    });

  return (
    <form ref={dialog.formRef} onSubmit={onSubmit} noValidate aria-label="Single sign-on">
      <Stack>
        <StaleChanges dialog={dialog} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Provider name"
            withAsterisk
            placeholder="e.g. Microsoft Entra ID"
            description="The text of the sign-in button"
            maxLength={100}
            error={errors.name?.message}
            {...register("name")}
          />
          <TextInput
            label="Issuer URL"
            withAsterisk
            placeholder="https://login.microsoftonline.com/<tenant>/v2.0"
            maxLength={500}
            error={errors.issuerUrl?.message}
            {...register("issuerUrl")}
          />
          <TextInput label="Client ID" withAsterisk maxLength={255} autoComplete="off" error={errors.clientId?.message} {...register("clientId")} />
          <PasswordInput
            label="Client secret"
            withAsterisk={!stored}
            placeholder={stored ? SSO_SECRET_STORED_PLACEHOLDER : undefined}
            autoComplete="new-password"
            maxLength={2000}
            error={errors.clientSecret?.message}
            {...register("clientSecret")}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="domains"
          render={({ field }) => (
            <TagsInput
              label="Email domains"
              withAsterisk
              placeholder="e.g. tafe.vic.edu.au"
              description="Staff whose email address is in one of these domains sign in with the provider"
              splitChars={[",", " ", ";"]}
              acceptValueOnBlur={false}
              searchValue={domainText}
              onSearchChange={setDomainText}
              clearable
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.domains?.message}
            />
          )}
        />
        <DomainVerification domains={config.domainStates ?? []} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={control}
            name="mode"
            render={({ field }) => (
              <Radio.Group label="Mode" value={field.value} onChange={(v) => field.onChange(v)}>
                <Group mt="xs" gap="lg">
                  {choices(MODE_LABELS).map((m) => (
                    <Radio key={m.value} value={m.value} label={m.label} />
                  ))}
                </Group>
              </Radio.Group>
            )}
          />
          <FormPicker
            control={control}
            name="breakGlassUserId"
            none={null}
            label="Break-glass administrator"
            withAsterisk={mode === "required"}
            placeholder={admins.length ? "Choose an administrator" : "No active administrators"}
            description="Still signs in with a password when single sign-on is required"
            clearable
            data={admins.map((u) => ({ value: u.id, label: adminLabel(u) }))}
            error={errors.breakGlassUserId?.message}
          />
        </SimpleGrid>
        <FormSwitch
          control={control}
          name="createAccounts"
          label="Create accounts for new staff"
          description="Staff of these domains without a Blockplan account get one at their first sign-in"
        />
        <FormSwitch control={control} name="enabled" label="Enabled" />
        <Input.Wrapper label="Redirect URI" description={SSO_REDIRECT_HINT} labelElement="div">
          <CopyableCode value={config.redirectUri} testId="sso-redirect-uri" />
        </Input.Wrapper>
        {config.postLogoutRedirectUri ? (
          <Input.Wrapper label="Post-logout redirect URI" description="Register it to sign staff out at the provider too." labelElement="div">
            <CopyableCode value={config.postLogoutRedirectUri} testId="sso-post-logout-uri" />
          </Input.Wrapper>
        ) : null}
        {config.backchannelLogoutUri ? (
          <Input.Wrapper
            label="Back-channel logout URI"
            description="Register it so that signing out at the provider signs staff out of Blockplan."
            labelElement="div"
          >
            <CopyableCode value={config.backchannelLogoutUri} testId="sso-backchannel-uri" />
          </Input.Wrapper>
        ) : null}
        {tested ? <TestResult result={tested} /> : null}
        <FormErrorList messages={dialog.serverMessages} />
        <Group justify="space-between">
          <div>
            {record.current ? (
              <Button color="red" variant="light" onClick={confirmRemove} loading={remove.isPending}>
                Remove single sign-on
              </Button>
            ) : null}
          </div>
          <Group gap="xs">
            <Button variant="default" onClick={runTest} loading={test.isPending}>
              Test connection
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save single sign-on
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** The "Single sign-on" card of the organization page. */
export function SingleSignOnCard() {
  const sso = useSsoConfig();
  const config = sso.data;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="sso-card">
      <Group gap="xs" mb={4}>
        <IconShieldLock size={20} aria-hidden />
        <Title order={2} size="h4">
          Single sign-on
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Staff sign in with your organization's identity provider (OpenID Connect).
      </Text>
      {sso.isLoading ? (
        <Skeleton h={240} />
      ) : config ? (
        // A new form once set up or removed: the form edits the configuration it was opened with.
        <SingleSignOnForm key={config.configured ? "configured" : "new"} config={config} />
      ) : (
        <Text c="dimmed">{errorMessage(sso.error, "Failed to load single sign-on")}</Text>
      )}
    </Card>
  );
}
