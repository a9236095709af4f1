import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createChannelsMachine } from './channelsMachine';
import type { CountryOffer } from './staffApi';

const gb: CountryOffer = { country: 'GB', name: 'United Kingdom', region: 'UK', systems: [] };

describe('channels machine', () => {
  it('makes one change at a time in the country looked at', async () => {
    const change = vi.fn(() => Promise.resolve(gb));
    const changed = vi.fn();
    const actor = createActor(createChannelsMachine({ change, changed }), { input: { country: 'DE' } }).start();
    actor.send({ type: 'COUNTRY', country: 'GB' });
    actor.send({ type: 'SET', change: { system: 'steel', offered: false } });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    // A second change waits for the first.
    actor.send({ type: 'SET', change: { system: 'super', offered: false } });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(change).toHaveBeenCalledTimes(1);
    expect(change).toHaveBeenCalledWith({ country: 'GB', system: 'steel', offered: false });
    expect(changed).toHaveBeenCalledWith(gb);
  });

  it('keeps a refusal for the screen', async () => {
    const actor = createActor(createChannelsMachine({ change: () => Promise.reject(new Error('no')), changed: vi.fn() }), {
      input: { country: 'GB' },
    }).start();
    actor.send({ type: 'SET', change: { system: 'steel', channel: '100', offered: true } });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toBeInstanceOf(Error);
  });
});
