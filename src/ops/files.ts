import type { ArtifactFile } from '../artifacts/index.ts';
import type { Services } from './context.ts';

/** A stored screenshot or PDF by its public key, or undefined when unknown or expired. */
export function openArtifact(services: Services, key: string): Promise<ArtifactFile | undefined> {
  return services.artifacts.get(key);
}
