import type { RegistrationField } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { isApiError } from '../../../lib/api-client';

export interface RegistrationFailure {
  fieldErrors: Partial<Record<RegistrationField, string>>;
  formError: string | null;
}

// Spec §8 routes a 409 by the words in its message ("Adhar" in the spec, "Aadhar"/"Aadhaar" in ours).
function conflictField(message: string): RegistrationField | null {
  if (/email/i.test(message)) return 'email';
  if (/contact/i.test(message)) return 'contact';
  if (/a?adh?aa?r/i.test(message)) return 'adharNo';
  return null;
}

const fieldNames: Record<string, RegistrationField> = {
  email: 'email',
  password: 'password',
  confirmpassword: 'ConfirmPassword',
  contact: 'contact',
  adharno: 'adharNo',
  roleid: 'roleId',
};

export function registrationFailure(error: unknown): RegistrationFailure {
  const unexpected: RegistrationFailure = { fieldErrors: {}, formError: messages.registration.unexpected };
  if (!isApiError(error)) return unexpected;
  const { status, problem } = error;

  if (status === 409 && problem.message) {
    const field = conflictField(problem.message);
    return field
      ? { fieldErrors: { [field]: problem.message }, formError: null }
      : { fieldErrors: {}, formError: problem.message };
  }
  // Only an Admin may register accounts (DESIGN.md §3); the server says so in its own words.
  if ((status === 401 || status === 403) && problem.message) {
    return { fieldErrors: {}, formError: problem.message };
  }
  if (status === 400 && problem.errors) {
    const fieldErrors: RegistrationFailure['fieldErrors'] = {};
    for (const [key, list] of Object.entries(problem.errors)) {
      const field = fieldNames[key.toLowerCase()];
      if (field && list[0]) fieldErrors[field] ??= list[0];
    }
    if (Object.keys(fieldErrors).length > 0) return { fieldErrors, formError: null };
  }
  return unexpected;
}
