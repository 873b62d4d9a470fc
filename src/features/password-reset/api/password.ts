import type { PasswordMessageResponse, ResetPasswordRequest } from '../../../../contract/password';
import { api } from '../../../lib/api-client';

// Both calls are anonymous: a stale token must neither be sent nor end someone's session here.
export function requestResetLink(email: string): Promise<PasswordMessageResponse> {
  return api
    .post('registration/forgotpassword', { json: { email }, context: { anonymous: true } })
    .json<PasswordMessageResponse>();
}

export function resetPassword(body: ResetPasswordRequest): Promise<PasswordMessageResponse> {
  return api
    .post('registration/reset-password', { json: body, context: { anonymous: true } })
    .json<PasswordMessageResponse>();
}
