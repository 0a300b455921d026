import { Alert, Button, Card, Group, Loader, SegmentedControl, Select, Skeleton, Stack, Switch, Text, Title, useMantineColorScheme } from "@mantine/core";
import { IconAlertTriangle, IconDownload, IconShieldLock } from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { errorMessage } from "@/lib/api";
import { useCurrentUser } from "@/lib/auth";
import { notifyError, notifySuccess } from "@/lib/notify";
import { applyCompact, toMantineScheme, type ThemeChoice } from "@/lib/theme";
import { AUTOSAVE_MS, DATE_FORMATS, DEFAULT_SETTINGS, TIME_FORMATS, TIMEZONES, exportData, useSaveSettings, useSettings, type UserSettings } from "./api";

/** Settings (/settings): appearance, regional, data & privacy, and the admin Danger Zone (docs/behaviour/accounts.md §8). */
export default function SettingsPage() {
  const settings = useSettings();
  const save = useSaveSettings();
  const { isAdmin } = useCurrentUser();
  const { setColorScheme } = useMantineColorScheme();
  const [values, setValues] = useState<UserSettings | null>(null);
  const [exporting, setExporting] = useState(false);
  const timer = useRef<number | null>(null);
  const pending = useRef<UserSettings | null>(null);

  // Load once: saved settings, or the defaults (404); a saved theme is applied here.
  useEffect(() => {
    if (values !== null || settings.isLoading) return;
    if (settings.isError) {
      notifyError("Error", "Failed to fetch settings");
      setValues(DEFAULT_SETTINGS);
      return;
    }
    const loaded = settings.data ?? DEFAULT_SETTINGS;
    setValues(loaded);
    if (settings.data) {
      setColorScheme(toMantineScheme(loaded.theme));
      applyCompact(loaded.preferences.compactView);
    }
  }, [settings.isLoading, settings.isError, settings.data, values, setColorScheme]);

  const flush = async () => {
    const next = pending.current;
    pending.current = null;
    timer.current = null;
    if (!next) return;
    try {
      await save.mutateAsync(next);
      notifySuccess("Settings saved", "Your preferences have been updated.");
    } catch (error) {
      notifyError("Save failed", errorMessage(error, "Save failed"));
    }
  };

  // A pending save still happens when the page is left.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on leaving; flush reads the latest values through refs
  useEffect(
    () => () => {
      if (timer.current !== null) {
        window.clearTimeout(timer.current);
        void flush();
      }
    },
    [],
  );

  /** Applies a change at once and saves it 500 ms after the last change. */
  const change = (next: UserSettings) => {
    setValues(next);
    setColorScheme(toMantineScheme(next.theme));
    applyCompact(next.preferences.compactView);
    pending.current = next;
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flush(), AUTOSAVE_MS);
  };
  const setPref = <K extends keyof UserSettings["preferences"]>(key: K, value: UserSettings["preferences"][K]) =>
    values && change({ ...values, preferences: { ...values.preferences, [key]: value } });

  const onExport = async () => {
    setExporting(true);
    try {
      await exportData();
      notifySuccess("Data exported", "Your data has been downloaded.");
    } catch (error) {
      notifyError("Export failed", errorMessage(error, "Export failed"));
    } finally {
      setExporting(false);
    }
  };

  if (!values) {
    return (
      <Stack>
        <Skeleton h={160} />
        <Skeleton h={200} />
      </Stack>
    );
  }

  /** A regional preference chosen from a list (it cannot be cleared). */
  const preference = (label: string, key: "dateFormat" | "timeFormat" | "timezone", data: string[] | { value: string; label: string }[]) => (
    <Select
      label={label}
      data={data}
      value={values.preferences[key]}
      onChange={(v) => v && setPref(key, v as UserSettings["preferences"][typeof key])}
      allowDeselect={false}
    />
  );

  return (
    <Stack gap="lg" maw={880}>
      <Group justify="flex-end" h={20}>
        {save.isPending || timer.current !== null ? (
          <Group gap={6}>
            <Loader size={12} />
            <Text size="xs" c="dimmed">
              Saving...
            </Text>
          </Group>
        ) : null}
      </Group>
      <SettingsCard title="Appearance" description="Customize how Blockplan looks on this device.">
        <Stack>
          <div>
            <Text size="sm" fw={500} mb={4} id="theme-label">
              Theme
            </Text>
            <SegmentedControl
              aria-labelledby="theme-label"
              value={values.theme}
              onChange={(v) => change({ ...values, theme: v as ThemeChoice })}
              data={[
                { label: "Light", value: "light" },
                { label: "Dark", value: "dark" },
                { label: "System", value: "system" },
              ]}
            />
          </div>
          <Switch
            label="Compact view"
            description="Show more information with tighter spacing"
            checked={values.preferences.compactView}
            onChange={(e) => setPref("compactView", e.currentTarget.checked)}
          />
        </Stack>
      </SettingsCard>

      <SettingsCard title="Regional & Language" description="Date, time and timezone preferences.">
        <Stack>
          {preference("Date format", "dateFormat", [...DATE_FORMATS])}
          {preference(
            "Time format",
            "timeFormat",
            TIME_FORMATS.map((t) => ({ value: t.value, label: t.label })),
          )}
          {preference("Timezone", "timezone", [...TIMEZONES])}
        </Stack>
      </SettingsCard>

      <SettingsCard title="Data & Privacy" description="Manage your data and privacy.">
        <Alert icon={<IconShieldLock size={18} />} color="blue" variant="light" mb="md">
          Your data is stored securely and handled according to your organization's data policies.
        </Alert>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={onExport} loading={exporting}>
          Export your data
        </Button>
      </SettingsCard>

      {isAdmin ? (
        <Card withBorder radius="md" padding="lg" style={{ borderColor: "var(--mantine-color-red-6)" }}>
          <Title order={2} size="h4" c="red">
            Danger Zone
          </Title>
          <Alert icon={<IconAlertTriangle size={18} />} color="red" variant="light" mt="md">
            Deleting an administrator account must be done by another administrator or your organization's IT department.
          </Alert>
        </Card>
      ) : null}
    </Stack>
  );
}

/** A card of the settings page: its title, what it is for, and its settings. */
function SettingsCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {children}
    </Card>
  );
}
