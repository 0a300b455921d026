/**
 * Why a single sign-on did not sign the user in (ADR 0022): the server sends the browser to
 * `/auth?ssoError=<code>`; the sign-in page shows the code's message. The texts are those of
 * MESSAGES in project/accounts/sso/services.py, word for word.
 */
export const SSO_ERROR_TITLE = "Single sign-on failed";
export const SSO_ERROR_FALLBACK = "Single sign-on failed. Please try again.";

export const SSO_ERROR_MESSAGES: Record<string, string> = {
  not_configured: "Single sign-on is not set up for this email address.",
  unavailable: "The identity provider could not be reached. Please try again, or ask your administrator.",
  state: "The sign-in could not be matched to this browser. Please start again from the sign-in page.",
  provider: "The identity provider did not sign you in.",
  token: "The identity provider's answer could not be verified, so you were not signed in.",
  no_email: "The identity provider did not give an email address.",
  unverified: "Your email address is not verified with your identity provider.",
  domain: "Your email address is not in a domain your organization's single sign-on covers.",
  unknown_user: "There is no Blockplan account for your email address. Ask your administrator to add you.",
  inactive: "Your Blockplan account is deactivated. Ask your administrator.",
  recheck: "Your single sign-on session has ended. Please sign in again.",
  reauth: "The identity provider did not confirm it was you. Please try again.",
};

/** The message for an `ssoError` code; the generic one for a code this version does not know. */
export function ssoErrorMessage(code: string): string {
  return Object.hasOwn(SSO_ERROR_MESSAGES, code) ? SSO_ERROR_MESSAGES[code] : SSO_ERROR_FALLBACK;
}
