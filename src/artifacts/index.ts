export { LocalArtifactStore } from './local.ts';
export { safeFileName, type ArtifactFile, type ArtifactStore } from './store.ts';
export { pngSize } from './png.ts';
