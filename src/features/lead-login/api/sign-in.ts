import type { LoginRequest, LoginResponse } from '../../../../contract/auth';
import { api } from '../../../lib/api-client';

/** The real login call (DESIGN.md §3): the spec's form compared hard-coded pairs in the browser. */
export function signIn(credentials: LoginRequest): Promise<LoginResponse> {
  return api
    .post('Registration/login', { json: credentials, context: { anonymous: true } })
    .json<LoginResponse>();
}
