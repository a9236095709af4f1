import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { Notice } from '../components/Notice';
import { errorText, formatTime, groupName, useFormats } from './format';
import type { StaffLogEntry } from './staffApi';

/** The latest staff actions: on users (administrators) or on what is offered where (the channel page). */
export function StaffHistory({ kind, limit = 15 }: { kind: 'users' | 'availability'; limit?: number }) {
  const { t } = useTranslation();
  const { staff } = useServices();
  const formats = useFormats();
  const history = useQuery({ queryKey: ['staff', 'history', kind, limit], queryFn: () => staff.history(kind, limit) });
  const titleId = `staff-history-${kind}`;
  return (
    <section className="card staff-history" aria-labelledby={titleId}>
      <h2 id={titleId}>{t(kind === 'users' ? 'staff.history.usersTitle' : 'staff.history.availabilityTitle')}</h2>
      {history.isError ? (
        <Notice tone="error">{errorText(t, history.error)}</Notice>
      ) : history.data && history.data.length === 0 ? (
        <p className="staff-history__empty">{t('staff.history.empty')}</p>
      ) : (
        <ol className="staff-history__list" aria-busy={history.isPending}>
          {(history.data ?? []).map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.time}>{formatTime(formats.dateTime, entry.time)}</time> <span>{describe(t, entry)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function describe(t: TFunction, e: StaffLogEntry): string {
  const actor = e.actor || t('staff.history.someone');
  const user = e.target_name || e.target;
  switch (e.action) {
    case 'blocked':
      return t('staff.history.blocked', { actor, user });
    case 'unblocked':
      return t('staff.history.unblocked', { actor, user });
    case 'deleted':
      return t('staff.history.deleted', { actor, user });
    case 'group_changed': {
      const [from = '', to = ''] = e.detail.split('>');
      return t('staff.history.groupChanged', {
        actor,
        user,
        from: groupName(t, from),
        to: groupName(t, to),
      });
    }
    case 'offered':
      return t('staff.history.offered', { actor, what: e.subject, country: e.target });
    case 'withdrawn':
      return t('staff.history.withdrawn', { actor, what: e.subject, country: e.target });
  }
}
