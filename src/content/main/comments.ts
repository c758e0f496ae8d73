import { wordCount } from '../dom/index.ts';
import type { Block, BlockFacts } from './blocks.ts';

/**
 * Readers' comments under a story are not the story. A caller feeding a model the page wants
 * what its author wrote, and comments are other people's words, often more of them than the
 * story's, on another subject, and changing from one visit to the next; trafilatura leaves them
 * out by default for the same reason. A product's customer reviews are its comments (on WCXB's
 * product pages 18% of the words under review markup are in the truth). `includeComments` keeps
 * them.
 */

/**
 * Fewer kept words outside the thread than this and the thread is the page (a thread whose
 * software names its posts comments), not a story with comments under it.
 */
const STORY_WORDS = 50;

/**
 * Drops the kept blocks of comment threads (`comment` in blocks.ts) when the kept content outside
 * them is a story of its own and the page does not declare itself a discussion (a forum thread,
 * a question and its answers), whose replies are its content.
 */
export function dropComments(
  blocks: readonly Pick<BlockFacts, 'comment'>[],
  words: readonly number[],
  keep: boolean[],
  declaresForum: boolean,
): void {
  if (declaresForum) return;
  let story = 0;
  keep.forEach((k, i) => {
    if (k && !blocks[i]!.comment) story += words[i]!;
  });
  if (story < STORY_WORDS) return;
  keep.forEach((k, i) => {
    if (k && blocks[i]!.comment) keep[i] = false;
  });
}

/** Fewer words are a commenter's name, a date or "Reply", which go with the thread's furniture. */
const COMMENT_WORDS = 8;

/** Above this share of link text a block is a thread's links (pages, "load more"), not a comment. */
const LINK_SHARE = 0.5;

/**
 * What readers wrote in the threads of a story whose content was kept, to keep with
 * `includeComments`, when the classifier kept nothing of them: trained on pages whose truths
 * differ on comments, it keeps part of a thread on some pages, and there its choice stands, and
 * drops it whole on others, where the caller who asked for comments would get none. Names,
 * dates, "Reply" links and the reply form stay out.
 */
export function keepComments(blocks: readonly Block[], keep: readonly boolean[]): number[] {
  let story = false;
  for (const [i, b] of blocks.entries()) {
    if (!keep[i]) continue;
    if (b.comment) return [];
    story = true;
  }
  if (!story) return [];
  return blocks.flatMap((b, i) =>
    b.comment &&
    wordCount(b.text) >= COMMENT_WORDS &&
    b.linkChars <= LINK_SHARE * b.text.length &&
    !b.element.closest('form')
      ? [i]
      : [],
  );
}
