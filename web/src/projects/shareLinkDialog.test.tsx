import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ServicesProvider } from '../app/ServicesContext';
import { createServices } from '../app/services';
import '../i18n/i18n';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';
import { ShareLinkDialog } from './ShareLinkDialog';

function renderDialog(status: number) {
  const user = aUser({ language: 'en' });
  const fake = fakeFetch(({ method, path }) => {
    if (method === 'POST' && path === '/drainage/unshare/') return { status, body: status === 200 ? { id: 'p1', shared: false } : { error: 'nope' } };
    return undefined;
  });
  const services = createServices({ fetchFn: fake.fetchFn, store: memoryUserStore(user), live: false });
  render(
    <ServicesProvider services={services}>
      <QueryClientProvider client={services.queryClient}>
        <ShareLinkDialog link="http://host/s-1" projectId="p1" onClose={() => undefined} />
      </QueryClientProvider>
    </ServicesProvider>,
  );
  return fake;
}

describe('ShareLinkDialog', () => {
  it('stops sharing the project it shows the link of, and hides the dead link', async () => {
    const fake = renderDialog(200);
    expect(screen.getByDisplayValue('http://host/s-1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByText(/no longer opens the project/)).toBeInTheDocument();
    expect(screen.queryByDisplayValue('http://host/s-1')).not.toBeInTheDocument();
    expect(fake.calls.filter((c) => c.path === '/drainage/unshare/').map((c) => c.body)).toEqual([{ id: 'p1' }]);
  });

  it('says so when sharing could not be stopped, and keeps the link', async () => {
    renderDialog(500);
    await userEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByText(/could not be stopped/)).toBeInTheDocument();
    expect(screen.getByDisplayValue('http://host/s-1')).toBeInTheDocument();
  });
});
