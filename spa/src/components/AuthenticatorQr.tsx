import { ActionIcon, Code, Group, Image, Stack, Text, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useState } from "react";
import { notifyError, notifySuccess } from "@/lib/notify";

/** Copies the manual entry key; the toasts of docs/behaviour/errors.md §9. */
export async function copyManualKey(key: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(key);
    notifySuccess("Copied to clipboard", "Manual entry key copied successfully");
    return true;
  } catch {
    notifyError("Copy failed", "Could not copy to clipboard");
    return false;
  }
}

/** The authenticator QR image (the server's data: URI, shown 256 px wide) and the manual key with copy. */
export function AuthenticatorQr({ qrCodeUri, manualEntryKey }: { qrCodeUri: string; manualEntryKey: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack gap="xs" align="center">
      <Text size="sm" ta="center">
        Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...).
      </Text>
      <Image src={qrCodeUri} alt="Authenticator QR code" w={256} h={256} fit="contain" p={8} bg="white" radius="sm" data-testid="totp-qr" />
      <Text size="sm" c="dimmed">
        Or enter this key manually:
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid="manual-entry-key" fz="sm" style={{ wordBreak: "break-all" }}>
          {manualEntryKey}
        </Code>
        <Tooltip label={copied ? "Copied" : "Copy key"}>
          <ActionIcon variant="light" aria-label="Copy manual entry key" onClick={async () => setCopied(await copyManualKey(manualEntryKey))}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      </Group>
    </Stack>
  );
}
