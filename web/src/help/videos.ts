/** One tutorial of /static/help/videos/manifest.json (written by scripts/record-help-videos.mjs). */
export interface HelpVideo {
  /** The WebM file, in /static/help/videos/. */
  file: string;
  /** The catalogue key of its title (help.videos.*), so it shows in the reader's language. */
  title: VideoTitle;
  /** A still of the walkthrough, in /static/help/videos/. */
  poster: string;
  /** Length in seconds. */
  duration: number;
  width: number;
  height: number;
}

export const VIDEOS_BASE = '/static/help/videos/';

/**
 * The titles a manifest may name: the catalogue keys of the recorded
 * tutorials (scripts/record-help-videos.mjs), so every one has its text in
 * all eleven languages and none shows as a raw key.
 */
export const VIDEO_TITLES = ['help.videos.designRun', 'help.videos.rainfallMap', 'help.videos.documents'] as const;
export type VideoTitle = (typeof VIDEO_TITLES)[number];

const FILE = /^[a-z0-9-]+\.(webm|jpg|png)$/;

/** The manifest's videos; entries that are not well-formed (or name files elsewhere) are left out. */
export function parseManifest(body: unknown): HelpVideo[] {
  const list = (body as { videos?: unknown } | null)?.videos;
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is HelpVideo => {
    const v = item as Partial<HelpVideo> | null;
    return (
      typeof v?.file === 'string' &&
      FILE.test(v.file) &&
      v.file.endsWith('.webm') &&
      typeof v.title === 'string' &&
      (VIDEO_TITLES as readonly string[]).includes(v.title) &&
      typeof v.poster === 'string' &&
      FILE.test(v.poster) &&
      typeof v.duration === 'number' &&
      typeof v.width === 'number' &&
      typeof v.height === 'number'
    );
  });
}

/** GET /static/help/videos/manifest.json: the tutorials, none when the build has no manifest. */
export async function fetchVideos(): Promise<HelpVideo[]> {
  const response = await fetch(`${VIDEOS_BASE}manifest.json`, { credentials: 'same-origin' });
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return [];
  return parseManifest(await response.json());
}

/** A length as m:ss. */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
