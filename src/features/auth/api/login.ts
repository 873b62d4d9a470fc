import type { LoginRequest, LoginResponse } from '../../../../contract/auth';
import { api } from '../../../lib/api-client';

export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return api
    .post('Registration/login', { json: credentials, context: { anonymous: true } })
    .json<LoginResponse>();
}
