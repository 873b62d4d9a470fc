import type { z } from 'zod';
import type { forgotPasswordSchema, resetPasswordSchema } from './auth';

// DESIGN.md §6: a reset link lives 30 minutes and works once.
export const RESET_TOKEN_TTL_MINUTES = 30;

export type ForgotPasswordRequest = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

/** Both calls answer `{message}`; the forgot answer is the same whether or not the email exists. */
export interface PasswordMessageResponse {
  message: string;
}

// Sentences of the reset flow that the spec does not word; contract/messages.ts holds the spec's.
export const passwordMessages = {
  resetDone: 'Your password has been reset. Please sign in with your new password.',
  tokenUnknown: 'This reset link is not valid. Please request a new one.',
  tokenExpired: 'This reset link has expired. Please request a new one.',
  tokenUsed: 'This reset link has already been used. Please request a new one.',
  tooManyRequests: 'Too many reset requests. Please try again later.',
  mailSubject: 'Reset your LeadNest password',
} as const;
