export { LocalArtifactStore } from './local.ts';
export { pngSize } from './png.ts';
export { type ArtifactFile, type ArtifactStore, safeFileName } from './store.ts';
