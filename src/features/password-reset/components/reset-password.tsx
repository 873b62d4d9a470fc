import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { resetPasswordSchema } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { passwordMessages } from '../../../../contract/password';
import { AuthShell } from '../../../components/layout/auth-shell';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { resetPassword } from '../api/password';

type Field = 'password' | 'ConfirmPassword';
const PASSWORD_HINT =
  'At least 8 characters: an uppercase and a lowercase letter, a digit and one of @$!%*?&.';

function fieldErrors(values: { token: string; password: string; ConfirmPassword: string }) {
  const result = resetPasswordSchema.safeParse(values);
  const errors: Partial<Record<Field, string>> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'password' || field === 'ConfirmPassword') && !errors[field])
      errors[field] = issue.message;
  }
  return errors;
}

/**
 * The token of the mailed link, /reset-password#token=… (issue 16: after '#', so it never reaches
 * a server log). Links mailed before carry it as ?token=…, which still works.
 */
function tokenIn({ hash, search }: { hash: string; search: string }): string {
  return new URLSearchParams(hash.slice(1)).get('token') ?? new URLSearchParams(search).get('token') ?? '';
}

/** The mailed link's target (DESIGN.md §6). */
export function ResetPassword() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenIn(location));
  useEffect(() => {
    // An older ?token= link: the token moves into the fragment, out of the address the browser
    // would send again on a reload and out of the history's query strings.
    if (!new URLSearchParams(location.search).has('token')) return;
    navigate({ pathname: location.pathname, search: '', hash: `token=${token}` }, { replace: true });
  }, [location.search, location.pathname, navigate, token]);
  const [values, setValues] = useState({ password: '', ConfirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(token ? null : passwordMessages.tokenUnknown);
  const [busy, setBusy] = useState(false);

  const update = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const found = fieldErrors({ token, ...values });
    if (found.password || found.ConfirmPassword) {
      setErrors(found);
      document.getElementById(found.password ? 'reset-password' : 'reset-confirm')?.focus();
      return;
    }
    setBusy(true);
    try {
      setDone((await resetPassword({ token, ...values })).message);
    } catch (error) {
      // A 400 names what is wrong with the link (unknown, expired, already used).
      const sentence = isApiError(error) && error.status === 400 ? error.problem.message : '';
      setFailure(sentence || messages.password.forgotFailed);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <AuthShell title="Choose a New Password">
        <p className="notice notice-info" role="status">
          {done}
        </p>
        <Link className="button button-primary button-block" to={paths.login}>
          Go to Login
        </Link>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Choose a New Password" subtitle="The link from the mail works once, for 30 minutes.">
      <form className="form" noValidate onSubmit={onSubmit}>
        {failure ? (
          <div className="form-error" role="alert">
            <p>{failure}</p>
            <Link to={paths.forgotPassword}>Request a new link</Link>
          </div>
        ) : null}
        <TextField
          id="reset-password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          error={errors.password}
          hint={PASSWORD_HINT}
          onChange={(e) => update('password', e.target.value)}
        />
        <TextField
          id="reset-confirm"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={values.ConfirmPassword}
          error={errors.ConfirmPassword}
          onChange={(e) => update('ConfirmPassword', e.target.value)}
        />
        <button
          className="button button-primary button-block"
          type="submit"
          disabled={busy || !token}
          aria-busy={busy}
        >
          Set New Password
        </button>
        <p className="form-footer">
          <Link to={paths.login}>Back to Login</Link>
        </p>
      </form>
    </AuthShell>
  );
}
