import { type FormEvent, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router-dom';
import type { LoginRequest } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { isRoleId } from '../../../../contract/roles';
import { TextField } from '../../../components/ui/form-field';
import { homePathFor, paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';
import { login } from '../api/login';

// Spec §9: the success message stays on screen this long before the role's home opens.
const REDIRECT_DELAY_MS = 1500;

type LoginField = 'email' | 'password';

// The rules of contract loginSchema (spec §5), checked without zod so the login bundle stays small.
function validate(values: LoginRequest): Partial<Record<LoginField, string>> {
  const errors: Partial<Record<LoginField, string>> = {};
  if (!values.email.trim()) errors.email = messages.login.emailRequired;
  if (!values.password.trim()) errors.password = messages.login.passwordRequired;
  return errors;
}

function failureMessage(error: unknown): string {
  // Refusals (a wrong password 401, a deactivated account 403, a rate limit 429) carry a
  // sentence meant for the user; a server failure does not.
  if (isApiError(error) && error.status < 500 && error.problem.message) {
    return error.problem.message;
  }
  return messages.login.failed;
}

export function LoginForm() {
  const navigate = useNavigate();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<LoginField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const update = (field: LoginField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const found = validate(values);
    if (found.email || found.password) {
      setErrors(found);
      document.getElementById(found.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    const credentials = { email: values.email.trim(), password: values.password };

    setBusy(true);
    try {
      const answer = await login(credentials);
      toast.success(answer.message);
      if (!isRoleId(answer.roleId)) {
        toast(messages.login.unknownRole, { icon: '⚠️' });
        setBusy(false);
        return;
      }
      saveSession({ token: answer.token, email: answer.email || credentials.email, roleId: answer.roleId });
      const home = homePathFor(answer.roleId);
      if (!home) {
        toast(messages.login.managerUnavailable, { icon: 'ℹ️' });
        setBusy(false);
        return;
      }
      redirectTimer.current = setTimeout(() => navigate(home, { replace: true }), REDIRECT_DELAY_MS);
    } catch (error) {
      setFormError(failureMessage(error));
      setBusy(false);
    }
  };

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <TextField
        id="login-email"
        label="Email-ID"
        type="email"
        autoComplete="username"
        inputMode="email"
        value={values.email}
        error={errors.email}
        onChange={(e) => update('email', e.target.value)}
      />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => update('password', e.target.value)}
      />
      <div className="form-row-end">
        <Link to={paths.forgotPassword}>Forgot Password?</Link>
      </div>
      <button className="button button-primary button-block" type="submit" disabled={busy} aria-busy={busy}>
        Login
      </button>
      <p className="form-footer">
        New to LeadNest? <Link to={paths.registration}>Create an Account</Link>
      </p>
    </form>
  );
}
