import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { emailField } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { isRoleId, Role } from '../../../../contract/roles';
import { AuthShell } from '../../../components/layout/auth-shell';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';
import { signIn } from '../api/sign-in';

type Field = 'email' | 'password';

function validate(email: string, password: string): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  // Spec §5: this form's email is type-checked, unlike the main login's.
  const parsed = emailField.safeParse(email);
  if (!parsed.success) errors.email = parsed.error.issues[0]?.message;
  if (!password.trim()) errors.password = messages.login.passwordRequired;
  return errors;
}

function failureMessage(error: unknown): string {
  if (isApiError(error) && error.status === 401) return messages.login.leadFormInvalid;
  if (isApiError(error) && error.status === 429 && error.problem.message) return error.problem.message;
  return messages.login.failed;
}

/** Spec §2 /lead/:id: a sign-in form that goes to /dashboard (an employee to their board). */
export function LeadLoginForm() {
  const navigate = useNavigate();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const update = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const found = validate(values.email, values.password);
    if (found.email || found.password) {
      setErrors(found);
      document.getElementById(found.email ? 'lead-login-email' : 'lead-login-password')?.focus();
      return;
    }
    setBusy(true);
    let answer: Awaited<ReturnType<typeof signIn>>;
    try {
      answer = await signIn({ email: values.email.trim(), password: values.password });
    } catch (error) {
      setFailure(failureMessage(error));
      setBusy(false);
      return;
    }
    const { roleId } = answer;
    if (!isRoleId(roleId)) {
      setFailure(messages.login.unknownRole);
      setBusy(false);
      return;
    }
    saveSession({ token: answer.token, email: answer.email, roleId });
    if (roleId === Role.Manager) {
      setFailure(messages.login.managerUnavailable);
      setBusy(false);
      return;
    }
    // /dashboard is the Admin's and its guard forwards nobody, so each role goes to its own home.
    navigate(roleId === Role.Employee ? paths.employeeBoard : paths.dashboard, { replace: true });
  };

  return (
    <AuthShell title="Sign In" subtitle="Sign in with your LeadNest account.">
      <form className="form" noValidate onSubmit={onSubmit}>
        {failure ? (
          <p className="form-error" role="alert">
            {failure}
          </p>
        ) : null}
        <TextField
          id="lead-login-email"
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
          value={values.email}
          error={errors.email}
          onChange={(e) => update('email', e.target.value)}
        />
        <TextField
          id="lead-login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          onChange={(e) => update('password', e.target.value)}
        />
        <div className="form-row-end">
          <Link to={paths.forgotPassword}>Forgot Password</Link>
        </div>
        <button className="button button-primary button-block" type="submit" disabled={busy} aria-busy={busy}>
          Login
        </button>
      </form>
    </AuthShell>
  );
}
