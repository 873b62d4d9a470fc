import { type FormEvent, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router-dom';
import { type RegistrationField, registrationErrors, registrationSchema } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { Role, roleNames } from '../../../../contract/roles';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { register } from '../api/register';
import { useDuplicateCheck } from '../hooks/use-duplicate-check';
import { registrationFailure } from '../utils/registration-failure';

// Spec §8: the success toast shows for 2 s, then the login screen opens.
const SUCCESS_DELAY_MS = 2000;

type Values = Record<RegistrationField, string>;
type Errors = Partial<Record<RegistrationField, string>>;

const empty: Values = { email: '', password: '', ConfirmPassword: '', contact: '', adharNo: '', roleId: '' };
const fieldIds: Record<RegistrationField, string> = {
  email: 'reg-email',
  password: 'reg-password',
  ConfirmPassword: 'reg-confirm',
  contact: 'reg-contact',
  adharNo: 'reg-aadhaar',
  roleId: 'reg-role',
};
const fieldOrder = Object.keys(fieldIds) as RegistrationField[];
const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

function toPayload(values: Values) {
  return { ...values, email: values.email.trim(), roleId: values.roleId ? Number(values.roleId) : undefined };
}

function focusFirst(errors: Errors) {
  const first = fieldOrder.find((field) => errors[field]);
  if (first) document.getElementById(fieldIds[first])?.focus();
}

export function RegistrationForm() {
  const navigate = useNavigate();
  // An Admin registering staff arrives from the dashboard; "/" sends them back there.
  const adminSignedIn = useSession()?.roleId === Role.Admin;
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const successTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(successTimer.current), []);

  const emailTaken = useDuplicateCheck('email', values.email, !busy);
  const contactTaken = useDuplicateCheck('contact', values.contact, !busy);
  const aadhaarTaken = useDuplicateCheck('adharNo', values.adharNo, !busy);
  const shown: Errors = {
    ...errors,
    email: errors.email ?? (emailTaken ? messages.registration.emailExists : undefined),
    contact: errors.contact ?? (contactTaken ? messages.registration.contactExists : undefined),
    adharNo: errors.adharNo ?? (aadhaarTaken ? messages.registration.aadhaarExists : undefined),
  };

  const update = (field: RegistrationField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const parsed = registrationSchema.safeParse(toPayload(values));
    if (!parsed.success) {
      const found = registrationErrors(toPayload(values));
      setErrors(found);
      focusFirst(found);
      return;
    }

    setBusy(true);
    try {
      await register(parsed.data);
      toast.success(messages.registration.success, { duration: SUCCESS_DELAY_MS });
      successTimer.current = setTimeout(() => navigate(paths.login), SUCCESS_DELAY_MS);
    } catch (error) {
      const failure = registrationFailure(error);
      setErrors(failure.fieldErrors);
      setFormError(failure.formError);
      focusFirst(failure.fieldErrors);
      setBusy(false);
    }
  };

  const text = (field: RegistrationField) => ({
    id: fieldIds[field],
    value: values[field],
    error: shown[field],
    onChange: (e: { target: { value: string } }) => update(field, e.target.value),
  });

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...text('email')} />
      <div className="form-grid">
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="8+ characters with upper and lower case, a number and one of @$!%*?&"
          {...text('password')}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          {...text('ConfirmPassword')}
        />
        <TextField
          label="Contact Number"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={10}
          {...text('contact')}
          onChange={(e) => update('contact', digitsOnly(e.target.value, 10))}
        />
        <TextField
          label="Aadhaar Number"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          {...text('adharNo')}
          onChange={(e) => update('adharNo', digitsOnly(e.target.value, 12))}
        />
      </div>
      <SelectField label="Role" {...text('roleId')}>
        <option value="">Select Role</option>
        {[Role.Admin, Role.Manager, Role.Employee].map((id) => (
          <option key={id} value={id}>
            {roleNames[id]}
          </option>
        ))}
      </SelectField>
      <button className="button button-primary button-block" type="submit" disabled={busy} aria-busy={busy}>
        Register
      </button>
      {adminSignedIn ? (
        <p className="form-footer">
          <Link to={paths.login}>Back to Dashboard</Link>
        </p>
      ) : (
        <p className="form-footer">
          Already have an account? <Link to={paths.login}>Login</Link>
        </p>
      )}
    </form>
  );
}
