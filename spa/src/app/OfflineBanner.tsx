import { Alert } from "@mantine/core";
import { IconWifiOff } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useLiveStatus } from "@/lib/socket";

const GRACE_MS = 3000;

/**
 * Besides the small Offline pill: a banner saying the page may be out of date and will refresh when the
 * connection returns (ADR 0016). Shown at once when the browser is offline, and after 3 s without the
 * live-update socket (not during the first connection or a quick reconnect).
 */
export function OfflineBanner() {
  const status = useLiveStatus();
  const [browserOffline, setBrowserOffline] = useState(() => typeof navigator !== "undefined" && navigator.onLine === false);
  const [late, setLate] = useState(false);
  useEffect(() => {
    const on = () => setBrowserOffline(false);
    const off = () => setBrowserOffline(true);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  useEffect(() => {
    if (status === "connected") {
      setLate(false);
      return;
    }
    const timer = window.setTimeout(() => setLate(true), GRACE_MS);
    return () => window.clearTimeout(timer);
  }, [status]);
  if (!browserOffline && (status === "connected" || !late)) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconWifiOff size={18} />} mb="md" role="status" data-testid="offline-banner">
      You are offline. This page may be out of date; it will refresh when the connection returns.
    </Alert>
  );
}
