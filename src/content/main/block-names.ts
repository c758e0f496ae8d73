/**
 * What the class and id names of an element say about the markup they name: the name groups the
 * block classifier reads (navigation, site chrome, comments, posts...), whether the markup cites
 * other text, and whether it is shown at one screen size only.
 */

/**
 * Names of markup shown at some screen sizes only: responsive utility classes (Bootstrap's
 * `d-md-none`, `d-none` and `hidden-xs`, Tailwind's `md:hidden` and `lg:block`, Foundation's
 * `show-for-small-only`) and names with a device in them (`description-mobile`, `desktop-only`).
 */
const VIEWPORT_NAMES =
  /(?:^|\s)(?:d-none|d-(?:sm|md|lg|xl|xxl)-(?:none|block|flex|grid|inline|inline-block)|(?:visible|hidden)-(?:xs|sm|md|lg|xl)(?:-[a-z-]+)?|(?:max-)?(?:sm|md|lg|xl|2xl):(?:hidden|block|flex|grid|inline|inline-block)|(?:show|hide)-for-[a-z-]+)(?=\s|$)|(?:^|[^a-z])(?:mobile|desktop|tablet)(?=$|[^a-z])/;

/**
 * Names of markup that cites other text: a quote (`quote`, XenForo's `bbCodeBlock--quote`,
 * Invision's `ipsQuote`, `quoteContainer`) or a preview cut to a few lines by the stylesheet
 * (`line-clamp-1`: NodeBB shows over each reply the post it answers so). A select-to-quote post
 * body (`js-selectToQuote`) is the post, not a quote.
 */
const CITING_NAMES =
  /(?:^|[^a-z])(?:ips|bbcode)?quotes?(?:container|contents?)?(?=$|[^a-z])|(?:^|\s)line-clamp-\d+(?=\s|$)/;

/**
 * Names of a comment thread under a story: the list of readers' comments and the box around it
 * (WordPress's `comments-area` and `comment-list`, `commentlist`, `disqus_thread`, a
 * `comment-section`), not a single comment's parts, which the thread holds.
 */
const THREAD_NAMES =
  /(?:^|[\s_-])(?:comments|commentlist|comment-list|comment-section|comment-thread|disqus_thread)(?=$|[\s_-])/i;

/**
 * Names of a product's customer reviews: the list and the box around it (`reviews`,
 * `product-reviews`, `customer-reviews`, `user_reviews`, a widget's `okendo-reviews`). A blog's
 * `tag-reviews` or `category-reviews` names a post about a product, which is a story.
 */
const REVIEW_NAMES =
  /(?:^|[\s_-])(?<!(?:tag|category|cat)[_-])(?:reviews|review-list|reviews-list|reviews-section|reviews-widget)(?=$|[\s_-])/i;

/** Words of class and id names, in groups that mean the same thing to a reader. */
export const NAME_GROUPS: Array<[string, RegExp]> = [
  [
    'navName',
    /(?:^|[^a-z])(?:nav|navbar|navigation|menu|menus|breadcrumbs?|pagination|pager|toc|tabs?|dropdown|megamenu)(?=$|[^a-z])/,
  ],
  [
    'chromeName',
    /(?:^|[^a-z])(?:header|footer|masthead|sidebar|side|widget|widgets|banner|topbar|bottom|copyright|legal|site-info|siteinfo)(?=$|[^a-z])/,
  ],
  [
    'socialName',
    /(?:^|[^a-z])(?:share|sharing|social|follow|newsletter|subscribe|signup|cookie|consent|promo|ad|ads|advert|sponsor|related|recommended|popular|trending|more)(?=$|[^a-z])/,
  ],
  ['commentName', /(?:^|[^a-z])(?:comments?|replies|reply|discussion|respond|disqus)(?=$|[^a-z])/],
  [
    'postName',
    /(?:^|[^a-z])(?:post|posts|message|messages|thread|topic|answer|answers|question|forum|bbcode|postbody|post-body)(?=$|[^a-z])/,
  ],
  [
    'contentName',
    /(?:^|[^a-z])(?:content|article|entry|story|body|text|main|blog|prose|markdown|rte|richtext|editorial)(?=$|[^a-z])/,
  ],
  [
    'productName',
    /(?:^|[^a-z])(?:product|products|price|prices|spec|specs|specifications|description|details|features|sku|cart|buy|review|reviews|rating)(?=$|[^a-z])/,
  ],
  [
    'cardName',
    /(?:^|[^a-z])(?:card|cards|item|items|tile|tiles|grid|listing|list|result|results|teaser|excerpt|summary)(?=$|[^a-z])/,
  ],
  [
    'metaName',
    /(?:^|[^a-z])(?:meta|byline|author|date|time|tags?|categor(?:y|ies)|label|caption|credit|avatar|user|username|profile|signature)(?=$|[^a-z])/,
  ],
  [
    'hiddenName',
    /(?:^|[^a-z])(?:hidden|hide|sr-only|visually-hidden|screen-reader-text|offscreen|collapse|collapsed)(?=$|[^a-z])/,
  ],
];

/** What a class and id string says, by the name groups and patterns above. */
export interface NamesRead {
  bits: number;
  citing: boolean;
  viewport: boolean;
  /** Names a comment thread (`THREAD_NAMES`). */
  thread: boolean;
  /** Names a product's reviews (`REVIEW_NAMES`). */
  reviews: boolean;
}

function nameBits(names: string): number {
  if (!names) return 0;
  let bits = 0;
  NAME_GROUPS.forEach(([, re], i) => {
    if (re.test(names)) bits |= 1 << i;
  });
  return bits;
}

/**
 * A reader of class and id strings for one page: a page repeats its class names on element after
 * element, so each string is read by the patterns once.
 */
export function nameReader(): (names: string) => NamesRead {
  const seen = new Map<string, NamesRead>();
  return (names) => {
    let read = seen.get(names);
    if (!read) {
      read = {
        bits: nameBits(names),
        citing: CITING_NAMES.test(names),
        viewport: VIEWPORT_NAMES.test(names),
        thread: THREAD_NAMES.test(names),
        reviews: REVIEW_NAMES.test(names),
      };
      seen.set(names, read);
    }
    return read;
  };
}
