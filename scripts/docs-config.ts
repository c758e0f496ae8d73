// `npm run docs:config`: rewrites the generated configuration tables of README.md and
// docs/configuration.md from the settings table; test/config/docs.test.ts fails when they drift.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { documentedSettings } from '../src/config.ts';
import { essentialSettings, replaceMarked, settingsReference } from '../src/settings/index.ts';

const ROOT = join(import.meta.dirname, '..');

/** Each generated file as it should read: its path under the repository and its text. */
export async function configDocs(): Promise<{ path: string; text: string }[]> {
  const settings = documentedSettings();
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const reference = await readFile(join(ROOT, 'docs/configuration.md'), 'utf8');
  return [
    { path: 'README.md', text: replaceMarked(readme, 'settings', essentialSettings(settings)) },
    {
      path: 'docs/configuration.md',
      text: replaceMarked(reference, 'settings', settingsReference(settings)),
    },
  ];
}

if (import.meta.main) {
  for (const doc of await configDocs()) await writeFile(join(ROOT, doc.path), doc.text);
}
