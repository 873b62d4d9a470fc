import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { emailField } from '../../../../contract/auth';
import { messages } from '../../../../contract/messages';
import { AuthShell } from '../../../components/layout/auth-shell';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { requestResetLink } from '../api/password';

function failureMessage(error: unknown): string {
  // A rate limit carries a sentence meant for the user; anything else is spec §8's message.
  if (isApiError(error) && error.status === 429 && error.problem.message) return error.problem.message;
  return messages.password.forgotFailed;
}

/** Spec §2 /forgot-password: asks for the email and shows the server's answer. */
export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [answer, setAnswer] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAnswer(null);
    setFailure(null);
    const parsed = emailField.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      document.getElementById('forgot-email')?.focus();
      return;
    }
    setBusy(true);
    try {
      setAnswer((await requestResetLink(parsed.data)).message);
    } catch (error) {
      setFailure(failureMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthShell
      title="Reset Password"
      subtitle="Enter the email of your account and we will mail you a reset link."
    >
      <form className="form" noValidate onSubmit={onSubmit}>
        {answer ? (
          <p className="notice notice-info" role="status">
            {answer}
          </p>
        ) : null}
        {failure ? (
          <p className="form-error" role="alert">
            {failure}
          </p>
        ) : null}
        <TextField
          id="forgot-email"
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
          value={email}
          error={fieldError}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldError(undefined);
          }}
        />
        <button className="button button-primary button-block" type="submit" disabled={busy} aria-busy={busy}>
          Send Reset Link
        </button>
        <p className="form-footer">
          <Link to={paths.login}>Back to Login</Link>
        </p>
      </form>
    </AuthShell>
  );
}
