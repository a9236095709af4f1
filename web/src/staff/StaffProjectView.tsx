import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { ChunkSuspense, lazyChunk } from '../components/chunk';
import { Link } from '../router/Link';
import { paths } from '../router/routes';
import { formatTime, useFormats } from './format';

const DesignScreen = lazyChunk(() => import('../design/DesignScreen').then((module) => ({ default: module.DesignScreen })));

/** A user's project opened from the staff area: the design screen, read-only, under a banner saying whose it is. */
export function StaffProjectView({ userID, superID }: { userID: string; superID: string }) {
  const { t } = useTranslation();
  const { staff } = useServices();
  const formats = useFormats();
  const user = useQuery({ queryKey: ['staff', 'user', userID], queryFn: () => staff.user(userID) });
  const projects = useQuery({ queryKey: ['staff', 'userProjects', userID], queryFn: () => staff.userProjects(userID) });
  const item = projects.data?.find((p) => p.id === superID);
  const username = user.data?.username ?? '';
  const banner = (
    <div className="staff-banner" role="note" aria-label={t('staff.banner.label')}>
      <p>
        <strong>{username ? t('staff.banner.whose', { username, name: user.data?.full_name || username }) : t('staff.banner.loading')}</strong>{' '}
        {t('staff.banner.readOnly')}
        {item?.deleted_at && <> {t('staff.banner.deleted', { date: formatTime(formats.dateTime, item.deleted_at) })}</>}
      </p>
      <Link to={paths.staffUser(userID)} className="button button--quiet button--small">
        {t('staff.banner.back', { username: username || '…' })}
      </Link>
    </div>
  );
  return (
    <ChunkSuspense>
      <DesignScreen shareID={null} superID={superID} banner={banner} />
    </ChunkSuspense>
  );
}
