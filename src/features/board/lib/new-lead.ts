import { messages } from '../../../../contract/messages';
import { normalisePhone, phoneMessages } from '../../../../contract/phone';

export type NewLeadField = 'name' | 'phoneNo' | 'email';

// The server checks the same rules with contract/admin.ts's newLeadSchema; the board checks them
// without zod so its bundle stays within budget (issue 7).
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** First message per field of the Add New Lead form (spec §2), in the order the form shows them. */
export function newLeadErrors(values: Record<NewLeadField, string>): Partial<Record<NewLeadField, string>> {
  const errors: Partial<Record<NewLeadField, string>> = {};
  const phone = values.phoneNo.trim();
  const email = values.email.trim();
  if (values.name.trim() === '') errors.name = messages.board.nameAndPhoneRequired;
  if (phone === '') errors.phoneNo = messages.board.nameAndPhoneRequired;
  else if (normalisePhone(phone) === null) errors.phoneNo = phoneMessages.phoneRule;
  if (email !== '' && !emailPattern.test(email)) errors.email = messages.registration.emailInvalid;
  return errors;
}
