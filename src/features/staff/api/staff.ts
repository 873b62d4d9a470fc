import type { Lead } from '../../../../contract/leads';
import type {
  ReassignAnswer,
  ReassignRequest,
  StaffChangeAnswer,
  StaffMember,
} from '../../../../contract/staff';
import { api } from '../../../lib/api-client';

export function fetchStaff(signal?: AbortSignal): Promise<StaffMember[]> {
  return api.get('Admin/staff', signal ? { signal } : {}).json<StaffMember[]>();
}

export function setActive(registrationId: number, active: boolean): Promise<StaffChangeAnswer> {
  const action = active ? 'reactivate' : 'deactivate';
  return api.post(`Admin/staff/${registrationId}/${action}`, { json: {} }).json<StaffChangeAnswer>();
}

export function reassign(body: ReassignRequest): Promise<ReassignAnswer> {
  return api.post('Admin/reassign', { json: body }).json<ReassignAnswer>();
}

/** The leads one account holds, for choosing which to move. */
export function fetchHeldLeads(employeeId: number, signal?: AbortSignal): Promise<Lead[]> {
  return api
    .get('Admin/leads', { searchParams: { employeeId }, ...(signal ? { signal } : {}) })
    .json<Lead[]>();
}

/** The forgot-password mail, the same one the account would get by asking for it (issue 17). */
export async function sendResetLink(email: string): Promise<void> {
  await api.post('registration/forgotpassword', { json: { email }, context: { anonymous: true } });
}
