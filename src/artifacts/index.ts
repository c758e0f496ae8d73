export { type ArtifactFile, type ArtifactStore, safeFileName } from './artifact-store.ts';
export { LocalArtifactStore } from './local.ts';
export { pngSize } from './png.ts';
