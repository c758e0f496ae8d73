export { codePointClass, isSpace, trimmedLength } from './code-points.ts';
export { imageSources, lazyAttributeSource, srcsetSource } from './image-source.ts';
export { firstMeta, firstTag, metadataTags } from './metadata-tags.ts';
export { NOT_SHOWN, resolveNoscripts } from './noscript.ts';
export { absoluteUrl, documentBase, parseHtml } from './parse.ts';
export { isEmbeddedPlayer, playableLink } from './playable-media.ts';
export { shareOf, wordCount, wordRuns, wordsOf } from './words.ts';
