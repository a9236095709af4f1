import './home.css';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../api/http';
import { Link } from '../router/Link';
import { paths } from '../router/routes';

/** GET /api/drainage/feature-sheet/{version}/{language}/: a feature sheet PDF made by the document generator. */
export function featureSheetHref(version: 'uk' | 'int', language: string): string {
  return `${API_BASE}/drainage/feature-sheet/${version}/${language}/`;
}

/** The two versions of the offering, each with its feature sheet (the home and the features page). */
export function FeatureVersions() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <div className="home-texts__versions">
      <article>
        <h3>{t('home.features.uk.title')}</h3>
        <p>{t('home.features.uk.text')}</p>
        <a className="button button--primary button--small" href={featureSheetHref('uk', language)} download data-testid="sheet-uk">
          {t('home.sheets.uk')}
        </a>
      </article>
      <article>
        <h3>{t('home.features.int.title')}</h3>
        <p>{t('home.features.int.text')}</p>
        <a className="button button--primary button--small" href={featureSheetHref('int', language)} download data-testid="sheet-int">
          {t('home.sheets.int')}
        </a>
      </article>
    </div>
  );
}

/**
 * The logged-out page's texts under the login form (spec section 2,
 * marketing and legal texts): the two versions with their feature sheets
 * and a link to the software features page, design reassurance,
 * confidentiality, experience, a link to the feedback page, privacy and
 * cookies. Translators edit every one of them.
 */
export function HomeTexts() {
  const { t } = useTranslation();
  return (
    <div className="home-texts">
      <section className="home-texts__features" aria-labelledby="features-title">
        <h2 id="features-title">{t('home.features.title')}</h2>
        <FeatureVersions />
        <p className="home-texts__more">
          <Link to={paths.features}>{t('home.features.more')}</Link>
        </p>
      </section>
      <section aria-labelledby="reassurance-title">
        <h2 id="reassurance-title">{t('home.reassurance.title')}</h2>
        <p>{t('home.reassurance.text')}</p>
      </section>
      <section aria-labelledby="confidentiality-title">
        <h2 id="confidentiality-title">{t('home.confidentiality.title')}</h2>
        <p>{t('home.confidentiality.text')}</p>
      </section>
      <section aria-labelledby="experience-title">
        <h2 id="experience-title">{t('home.experience.title')}</h2>
        <p>{t('home.experience.text')}</p>
      </section>
      <section aria-labelledby="feedback-title">
        <h2 id="feedback-title">{t('home.feedback.title')}</h2>
        <p>{t('home.feedback.text')}</p>
        <p>
          <Link to={paths.feedback}>{t('home.feedback.more')}</Link>
        </p>
      </section>
      <section aria-labelledby="privacy-title">
        <h2 id="privacy-title">{t('home.privacy.title')}</h2>
        <p>{t('home.privacy.text')}</p>
        <h2>{t('home.cookies.title')}</h2>
        <p>{t('cookies.text')}</p>
        <p>
          <a href={paths.help} target="_blank" rel="noopener">
            {t('nav.help')}
          </a>
        </p>
      </section>
    </div>
  );
}
