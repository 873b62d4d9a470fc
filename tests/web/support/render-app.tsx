import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from '../../../src/app/providers';
import { AppRoutes } from '../../../src/app/router';

interface CurrentLocation {
  pathname: string;
  search: string;
}

function LocationProbe({ into }: { into: CurrentLocation }) {
  const location = useLocation();
  into.pathname = location.pathname;
  into.search = location.search;
  return null;
}

/** Renders the whole app at `path`, the way a user opening that address would see it. */
export function renderApp(path: string, userOptions: Parameters<typeof userEvent.setup>[0] = {}) {
  const location: CurrentLocation = { pathname: '', search: '' };
  const user = userEvent.setup(userOptions);
  const view = render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe into={location} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, user, location };
}
