import { z } from 'zod';
import { verhoeffValid } from './aadhaar';
import { messages } from './messages';
import type { RoleId } from './roles';

const m = messages.registration;

// Spec §5: letters, digits and @$!%*?& only, with one of each class. The upper bound keeps a
// megabyte-long password from ever reaching the hasher.
export const PASSWORD_MAX = 128;
export const passwordPattern = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const loginSchema = z.object({
  email: z.string().trim().min(1, messages.login.emailRequired).max(254),
  password: z
    .string()
    .max(PASSWORD_MAX)
    .refine((p) => p.trim().length > 0, messages.login.passwordRequired),
});
export type LoginRequest = z.infer<typeof loginSchema>;

export interface LoginResponse {
  token: string;
  email: string;
  roleId: RoleId;
  message: string;
}

export const emailField = z
  .string()
  .trim()
  .min(1, m.emailRequired)
  .max(254)
  .regex(emailPattern, m.emailInvalid);
export const passwordField = z
  .string()
  .max(PASSWORD_MAX, m.passwordRule)
  .regex(passwordPattern, m.passwordRule);
export const contactField = z.string().regex(/^\d{10}$/, m.contactRule);
export const aadhaarField = z
  .string()
  .regex(/^\d{12}$/, m.aadhaarRule)
  .refine((v) => !/^\d{12}$/.test(v) || !/^[01]/.test(v), m.aadhaarFirstDigit)
  .refine((v) => !/^[2-9]\d{11}$/.test(v) || verhoeffValid(v), m.aadhaarChecksum);

export const registrationSchema = z
  .object({
    email: emailField,
    password: passwordField,
    ConfirmPassword: z.string().max(PASSWORD_MAX).min(1, m.confirmRequired),
    contact: contactField,
    adharNo: aadhaarField,
    roleId: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: m.roleRequired }),
  })
  .refine((v) => v.ConfirmPassword === '' || v.password === v.ConfirmPassword, {
    path: ['ConfirmPassword'],
    message: m.confirmMismatch,
    // Zod skips object checks while any field is invalid; the form shows the mismatch alongside
    // the other messages, so run it whenever both passwords are strings.
    when: (payload) => {
      const v = payload.value as { password?: unknown; ConfirmPassword?: unknown };
      return typeof v?.password === 'string' && typeof v?.ConfirmPassword === 'string';
    },
  });
export type RegistrationRequest = z.infer<typeof registrationSchema>;

export type RegistrationField = keyof RegistrationRequest;

/** First message per field, the way the registration form shows them (spec §5). */
export function registrationErrors(values: unknown): Partial<Record<RegistrationField, string>> {
  const result = registrationSchema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<RegistrationField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as RegistrationField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export interface RegistrationResponse {
  registrationId: number;
  email: string;
  roleId: RoleId;
  message: string;
}

export const forgotPasswordSchema = z.object({ email: z.string().trim().min(1, m.emailRequired).max(254) });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(16).max(256),
    password: passwordField,
    ConfirmPassword: z.string().max(PASSWORD_MAX).min(1, m.confirmRequired),
  })
  .refine((v) => v.password === v.ConfirmPassword, { path: ['ConfirmPassword'], message: m.confirmMismatch });
