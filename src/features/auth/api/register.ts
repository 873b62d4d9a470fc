import type { RegistrationRequest, RegistrationResponse } from '../../../../contract/auth';
import { api } from '../../../lib/api-client';

export function register(payload: RegistrationRequest): Promise<RegistrationResponse> {
  return api.post('Registration', { json: payload }).json<RegistrationResponse>();
}
