import './home.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../api/http';
import { useDocumentTitle } from '../components/useDocumentTitle';

/** GET /api/client-config/'s feedback address ("" when the deployment names none). */
async function feedbackEmail(): Promise<string> {
  const response = await fetch(`${API_BASE}/client-config/`, { credentials: 'same-origin' });
  if (!response.ok) return '';
  const config = (await response.json()) as { feedbackEmail?: string };
  return config.feedbackEmail ?? '';
}

/** A mailto: link with the subject in the reader's language. */
export function feedbackHref(address: string, subject: string): string {
  return `mailto:${address}?subject=${encodeURIComponent(subject)}`;
}

/**
 * The feedback page (/feedback, spec section 2): where readers in Europe and
 * beyond and in the UK send comments, and a mail link to the address the
 * deployment configures (FEEDBACK_EMAIL; docs/decisions.md).
 */
export function FeedbackScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('home.feedback.title'));
  const address = useQuery({ queryKey: ['feedback-email'], queryFn: feedbackEmail, staleTime: Infinity });
  return (
    <article className="text-page" aria-labelledby="feedback-page-title">
      <h1 id="feedback-page-title">{t('home.feedback.title')}</h1>
      <p className="text-page__lead">{t('feedback.intro')}</p>
      <p>{t('home.feedback.europe')}</p>
      <p>{t('home.feedback.uk')}</p>
      {address.data && (
        <p>
          <a className="button button--primary" href={feedbackHref(address.data, t('feedback.subject'))}>
            {t('feedback.write')}
          </a>{' '}
          <span className="text-page__address">{address.data}</span>
        </p>
      )}
    </article>
  );
}
