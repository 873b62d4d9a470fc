import { AuthShell } from '../../components/layout/auth-shell';
import { RegistrationForm } from '../../features/auth/components/registration-form';

export function RegistrationRoute() {
  return (
    <AuthShell title="Create an Account" subtitle="Admins register the agency's staff here." wide>
      <RegistrationForm />
    </AuthShell>
  );
}
