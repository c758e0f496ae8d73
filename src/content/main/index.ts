export { shippedModel } from './block-model.ts';
export { isHeadingToggle } from './boilerplate.ts';
export { selectMainContent } from './main-content.ts';
export { MIN_RUN, Repeats } from './repeats.ts';
