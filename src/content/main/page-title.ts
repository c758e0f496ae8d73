/** Whether a text names its page: the title heading and the page's own pictures are found so. */
import { wordsOf } from '../dom/index.ts';

/** The page's <title> and og:title, lower case: what a text naming the page repeats. */
export const pageTitle = (doc: Document) =>
  `${doc.querySelector('title')?.textContent ?? ''} ${doc.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? ''}`.toLowerCase();

/** Does the text name the page: are most of its words in its title (`pageTitle`)? */
export function namesPage(title: string, text: string): boolean {
  const w = wordsOf(text);
  return w.length > 0 && w.filter((x) => title.includes(x)).length >= 0.75 * w.length;
}
