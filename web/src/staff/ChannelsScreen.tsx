import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { Notice } from '../components/Notice';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { createChannelsMachine } from './channelsMachine';
import { errorText } from './format';
import { StaffHistory } from './StaffHistory';
import type { CountryOffer } from './staffApi';

/**
 * Channel availability: per country, which systems and which of their
 * channel types are offered. A change is recorded at once and reaches the
 * country's users' system lists within moments.
 */
export function ChannelsScreen() {
  const { t } = useTranslation();
  const { staff } = useServices();
  const queryClient = useQueryClient();
  const home = useSession((s) => s.context.user?.country?.iso_code ?? 'GB');
  useDocumentTitle(t('staff.channels.title'));
  const offers = useQuery({ queryKey: ['staff', 'offers'], queryFn: staff.offers });
  const machine = useMemo(
    () =>
      createChannelsMachine({
        change: staff.changeOffer,
        changed: (offer) => {
          queryClient.setQueryData<CountryOffer[]>(['staff', 'offers'], (list) => list?.map((c) => (c.country === offer.country ? offer : c)));
          void queryClient.invalidateQueries({ queryKey: ['staff', 'history'] });
          // This user's own system list, should it be of that country.
          void queryClient.invalidateQueries({ queryKey: ['products'] });
        },
      }),
    [staff, queryClient],
  );
  const [state, send] = useMachine(machine, { input: { country: home } });
  const { country, pending, error } = state.context;
  const current = offers.data?.find((c) => c.country === country);
  const saving = state.matches('saving');
  const isPending = (system: string, channel = '') => !!pending && pending.system === system && (pending.channel ?? '') === channel;

  return (
    <>
      <section className="card" aria-labelledby="channels-title">
        <h1 id="channels-title">{t('staff.channels.title')}</h1>
        <p className="form__intro">{t('staff.channels.intro')}</p>
        <div className="field staff-channels__country">
          <label htmlFor="channels-country">{t('staff.channels.country')}</label>
          <select id="channels-country" value={country} onChange={(event) => send({ type: 'COUNTRY', country: event.target.value })}>
            {(offers.data ?? []).map((c) => (
              <option key={c.country} value={c.country}>
                {c.name} ({c.country})
              </option>
            ))}
          </select>
        </div>
        {offers.isError && <Notice tone="error">{errorText(t, offers.error)}</Notice>}
        {!!error && <Notice tone="error">{errorText(t, error)}</Notice>}
        {current && (
          <ul className="staff-channels" aria-label={t('staff.channels.systemsIn', { country: current.name })} aria-busy={saving}>
            {current.systems.map((system) => (
              <li key={system.slug} className={system.offered ? 'staff-channels__system' : 'staff-channels__system staff-channels__system--off'}>
                <label className="checkbox staff-channels__name">
                  <input
                    type="checkbox"
                    checked={system.offered}
                    disabled={saving}
                    onChange={(event) => send({ type: 'SET', change: { system: system.slug, offered: event.target.checked } })}
                  />
                  <strong>{system.name}</strong> <span className="staff-channels__slug">{system.slug}</span>
                  {isPending(system.slug) && <span className="staff-channels__saving"> {t('staff.channels.saving')}</span>}
                </label>
                {system.channels.length > 0 && (
                  <fieldset className="staff-channels__types" disabled={!system.offered || saving}>
                    <legend>{t('staff.channels.types', { system: system.name })}</legend>
                    {system.channels.map((channel) => (
                      <label key={channel.code} className="checkbox">
                        <input
                          type="checkbox"
                          checked={channel.offered && system.offered}
                          onChange={(event) => send({ type: 'SET', change: { system: system.slug, channel: channel.code, offered: event.target.checked } })}
                          aria-label={t('staff.channels.typeLabel', { system: system.name, code: channel.code, width: channel.width_mm })}
                        />
                        {channel.code === String(channel.width_mm) ? `${channel.width_mm} mm` : t('staff.channels.type', { code: channel.code, width: channel.width_mm })}
                        {isPending(system.slug, channel.code) && <span className="staff-channels__saving"> {t('staff.channels.saving')}</span>}
                      </label>
                    ))}
                  </fieldset>
                )}
              </li>
            ))}
          </ul>
        )}
        <p className="form__intro">{t('staff.channels.catalogueNote')}</p>
      </section>
      <StaffHistory kind="availability" />
    </>
  );
}
