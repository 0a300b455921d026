/** Validation of the sign-in, account setup and first-time forms (docs/behaviour/accounts.md §2), exact messages. */
import { z } from "zod";

export const TOTP_MESSAGE = "TOTP code must be 6 digits";

export const signInSchema = z.object({
  email: z.email({ error: "Invalid email address" }),
  password: z.string().min(1, { error: "Password is required" }),
  totpCode: z
    .string()
    .optional()
    .refine((v) => !v || v.length === 6, { error: TOTP_MESSAGE }),
  rememberMe: z.boolean().default(false),
});
export type SignInValues = z.input<typeof signInSchema>;

/** The password rules (change and initial setup), each with its own message. */
export const passwordRules = z
  .string()
  .min(12, { error: "Password must be at least 12 characters" })
  .regex(/[a-z]/, { error: "Password must contain at least one lowercase letter" })
  .regex(/[A-Z]/, { error: "Password must contain at least one uppercase letter" })
  .regex(/[0-9]/, { error: "Password must contain at least one number" })
  .regex(/[^A-Za-z0-9]/, { error: "Password must contain at least one special character" });

export const accountSetupSchema = z
  .object({
    password: passwordRules,
    confirmPassword: z.string(),
    totpCode: z.string().length(6, { error: TOTP_MESSAGE }),
  })
  .refine((v) => v.password === v.confirmPassword, { error: "Passwords don't match", path: ["confirmPassword"] });
export type AccountSetupValues = z.infer<typeof accountSetupSchema>;

export const firstTimeSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { error: "Email is required" })
    .pipe(z.email({ error: "Please enter a valid email address" })),
});
export type FirstTimeValues = z.infer<typeof firstTimeSchema>;
