export { LocalArtifactStore, type LocalArtifactOptions } from './local.ts';
export { safeFileName, type ArtifactFile, type ArtifactStore, type StoredArtifact } from './store.ts';
export { pngSize } from './png.ts';
