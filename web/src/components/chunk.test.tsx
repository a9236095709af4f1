import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/i18n';
import { ChunkSuspense, lazyChunk } from './chunk';

function Page({ title }: { title: string }) {
  return <h1>{title}</h1>;
}

const i18n = createI18n('en');
const inEnglish = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;

describe('ChunkSuspense', () => {
  it('shows a retry message when a page’s code fails to load, and loads it again on retry', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Page }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Page });
    const Lazy = lazyChunk(load);
    render(
      <ChunkSuspense>
        <Lazy title="Design" />
      </ChunkSuspense>,
      { wrapper: inEnglish },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This part of the page could not be loaded');
    expect(load).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Design' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a dialog’s failure as a dialog of its title, which can be closed', async () => {
    const load = vi.fn<() => Promise<{ default: typeof Page }>>().mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    const Lazy = lazyChunk(load);
    const onClose = vi.fn();
    render(
      <ChunkSuspense fallback={null} dialog={{ title: 'UK rainfall map', onClose }}>
        <Lazy title="Map" />
      </ChunkSuspense>,
      { wrapper: inEnglish },
    );
    const dialog = await screen.findByRole('dialog', { name: 'UK rainfall map' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('This part of the page could not be loaded');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives up waiting after the timeout and offers the retry', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const load = vi.fn(() => new Promise<{ default: typeof Page }>(() => undefined));
      const Lazy = lazyChunk(load, 120_000);
      render(
        <ChunkSuspense>
          <Lazy title="Staff" />
        </ChunkSuspense>,
        { wrapper: inEnglish },
      );
      expect(screen.getByRole('status')).toHaveTextContent('Loading');
      await vi.advanceTimersByTimeAsync(119_000);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await screen.findByRole('alert')).toHaveTextContent('Try again');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves other errors to the boundaries above it', () => {
    function Broken(): never {
      throw new Error('not a chunk');
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <ChunkSuspense>
          <Broken />
        </ChunkSuspense>,
      ),
    ).toThrow('not a chunk');
    vi.mocked(console.error).mockRestore();
  });
});
