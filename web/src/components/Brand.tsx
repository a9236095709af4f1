import { useTranslation } from 'react-i18next';
import { Link } from '../router/Link';
import { paths } from '../router/routes';

/** The product's name is a brand: the same in every language. */
export const PRODUCT_NAME = 'draindesign';

export function Brand() {
  const { t } = useTranslation();
  return (
    <Link to={paths.home} className="brand" aria-label={t('nav.home')}>
      <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" />
        <path d="M6 11h20v4H6zM9 17h2v7H9zM15 17h2v7h-2zM21 17h2v7h-2z" />
      </svg>
      <span className="brand__name">{PRODUCT_NAME}</span>
    </Link>
  );
}
