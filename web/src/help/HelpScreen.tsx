import './help.css';
import { useMachine } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { helpMachine } from './helpMachine';
import { languageLabel, topicTitle } from './topics';
import { fetchVideos, formatDuration, VIDEOS_BASE, type HelpVideo } from './videos';

/** GET /static/help/{locale}/{file}.html, the spec's call: the HTML, or null when the language has none. */
async function fetchPage(language: string, file: string): Promise<string | null> {
  const response = await fetch(`/static/help/${encodeURIComponent(language)}/${encodeURIComponent(file)}.html`, { credentials: 'include' });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`help page ${response.status}`);
  return response.text();
}

/** The help page (/help): the topics in the user's language, English where a topic has none yet. */
export function HelpScreen({ topic }: { topic: string | null }) {
  const { t, i18n } = useTranslation();
  const { translations } = useServices();
  useDocumentTitle(t('help.title'));
  const [snapshot, send] = useMachine(helpMachine, {
    input: { topics: translations.helpTopics, page: fetchPage, language: i18n.language, topic },
  });
  const { list, shown, failed, language } = snapshot.context;
  useEffect(() => {
    if (i18n.language !== language) send({ type: 'LANGUAGE', language: i18n.language });
  }, [i18n.language, language, send]);
  const languageName = languageLabel(language, i18n.language);
  const current = snapshot.context.topic;
  const videos = useQuery({ queryKey: ['help-videos'], queryFn: fetchVideos, staleTime: 600_000 });
  const [video, setVideo] = useState<HelpVideo | null>(null);

  return (
    <div className="help">
      <nav className="help__topics" aria-labelledby="help-topics-title">
        <h1 id="help-topics-title">{t('help.title')}</h1>
        <h2 className="help__list-title">{t('help.topics')}</h2>
        <ul>
          {list.map((item) => (
            <li key={item.topic_file}>
              <a
                href={`/help?topic=${item.topic_file}`}
                aria-current={item.topic_file === current ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  window.history.replaceState(null, '', `/help?topic=${item.topic_file}`);
                  send({ type: 'OPEN', file: item.topic_file });
                }}
              >
                {topicTitle(t, i18n, item.topic_file, item.topic_title)}
              </a>
            </li>
          ))}
        </ul>
        {(videos.data?.length ?? 0) > 0 && (
          <>
            <h2 className="help__list-title" id="help-videos-title">
              {t('help.videos.title')}
            </h2>
            <ul aria-labelledby="help-videos-title" className="help__videos">
              {videos.data?.map((item) => (
                <li key={item.file}>
                  <button
                    type="button"
                    className="help__video-link"
                    aria-pressed={video?.file === item.file}
                    onClick={() => setVideo(item)}
                  >
                    <span aria-hidden="true">▶ </span>
                    {t(item.title)} <span className="help__video-length">{formatDuration(item.duration)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </nav>
      <div className="help__main">
        {video && <VideoPlayer video={video} onClose={() => setVideo(null)} />}
        <article className="help__page" aria-busy={snapshot.matches('opening') || snapshot.matches('listing')}>
          {failed && <p className="notice notice--error">{t('help.failed')}</p>}
          {shown?.fallback && (
            <p className="notice help__fallback" role="note">
              {t('help.fallback', { language: languageName })}
            </p>
          )}
          {/* The server renders the Markdown without raw HTML or script links (api/markdown). */}
          {shown && <div className="help__text" lang={shown.fallback ? 'en' : undefined} dangerouslySetInnerHTML={{ __html: shown.html }} />}
        </article>
      </div>
    </div>
  );
}

/** The chosen tutorial in a player, above the topic. */
function VideoPlayer({ video, onClose }: { video: HelpVideo; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="help__player" aria-labelledby="help-player-title">
      <div className="help__player-head">
        <h2 id="help-player-title">{t(video.title)}</h2>
        <button type="button" className="button button--quiet button--small" onClick={onClose}>
          {t('help.videos.close')}
        </button>
      </div>
      {/* Recorded from the product by scripts/record-help-videos.mjs; the walkthroughs have no sound. */}
      <video
        key={video.file}
        controls
        preload="metadata"
        width={video.width}
        height={video.height}
        poster={`${VIDEOS_BASE}${video.poster}`}
        src={`${VIDEOS_BASE}${video.file}`}
        aria-label={t(video.title)}
      />
    </section>
  );
}
