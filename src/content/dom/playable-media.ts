/**
 * Videos, audio and embedded players as markdown, which has no syntax for them: each becomes a
 * link line to what plays, named as a screen reader names it (`[Video: A tour of the lock](…/tour.mp4)`,
 * `[Audio](…/interview.mp3)`, `[Embedded: Beginner's guide](https://player.example/embed/…)`).
 * Turndown wrote only a video's fallback lines ("Your browser does not support the video tag")
 * and no frames at all, so a talk, a podcast or a walkthrough in an article left no trace.
 */

const isWebUrl = (url: string | null): url is string => /^https?:/i.test(url ?? '');

/**
 * A frame that plays something: it asks to go full screen (`allowfullscreen`, or
 * `allow="fullscreen"` or `picture-in-picture`), as video, slide, map and book players do and
 * tag managers, ad slots, chat and comment widgets do not (on the 1,657 data-set pages, 193 of
 * 1,034 frames; 358 of the rest were one tag manager's). Every other frame stays never content.
 */
export function isEmbeddedPlayer(el: Element): boolean {
  if (el.tagName !== 'IFRAME' || !isWebUrl(el.getAttribute('src'))) return false;
  return (
    el.hasAttribute('allowfullscreen') ||
    /\b(?:fullscreen|picture-in-picture)\b/.test(el.getAttribute('allow') ?? '')
  );
}

/** The first web address a video or audio element plays: its `src`, else its `<source>`s'. */
function mediaFile(media: Element): string | undefined {
  for (const el of [media, ...media.querySelectorAll('source')]) {
    const src = el.getAttribute('src');
    if (isWebUrl(src)) return src;
  }
  return undefined;
}

/**
 * What a video, audio or embedded player plays, and its kind; nothing for a muted video without
 * controls, which plays as a moving picture (a hero's background loop, a product's turning shot:
 * 236 of the 334 videos on the 1,657 data-set pages), or for one whose stream a script attaches
 * (a `blob:` source, or none), which has no file to give.
 */
function playable(el: Element): { kind: string; url: string } | undefined {
  if (el.tagName === 'IFRAME')
    return isEmbeddedPlayer(el) ? { kind: 'Embedded', url: el.getAttribute('src')! } : undefined;
  if (el.tagName === 'VIDEO' && el.hasAttribute('muted') && !el.hasAttribute('controls'))
    return undefined;
  const url = mediaFile(el);
  return url ? { kind: el.tagName === 'VIDEO' ? 'Video' : 'Audio', url } : undefined;
}

/** The markdown of a video, audio or frame: a link line to what it plays, or nothing. */
export function playableLink(el: Element, escapeText: (text: string) => string): string {
  const media = playable(el);
  if (!media) return '';
  const name = (el.getAttribute('aria-label') || el.getAttribute('title') || '')
    .replace(/\s+/g, ' ')
    .trim();
  const text = name ? `${media.kind}: ${escapeText(name)}` : media.kind;
  return `\n\n[${text}](${media.url.replace(/[()]/g, (c) => `\\${c}`)})\n\n`;
}
