import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { notifyError } from "@/lib/notify";
import { SSO_ERROR_TITLE, ssoErrorMessage } from "./ssoMessages";

/**
 * A refused confirmation with the identity provider comes back to the page it started from with
 * `?ssoError=<code>` (ADR 0022; the sign-in page shows its own alert): show it as a toast once and drop
 * the parameter from the address, so a reload does not show it again.
 */
export function useSsoErrorNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const code = params.get("ssoError");
    if (!code) return;
    notifyError(SSO_ERROR_TITLE, ssoErrorMessage(code));
    params.delete("ssoError");
    const rest = params.toString();
    navigate(`${location.pathname}${rest ? `?${rest}` : ""}`, { replace: true });
  }, [location.pathname, location.search, navigate]);
}
