import type { Config } from '../config.ts';
import { KeyStore, openDatabase } from '../store/index.ts';

function usage(): never {
  console.error('usage: webdata keys create --name NAME | keys list | keys revoke ID_OR_PREFIX');
  process.exit(2);
}

export async function keysCommand(config: Config, args: string[]): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const keys = new KeyStore(database.db);
  try {
    const [sub, ...rest] = args;
    if (sub === 'create') {
      const nameAt = rest.indexOf('--name');
      const name = nameAt >= 0 ? rest[nameAt + 1] : undefined;
      if (!name) usage();
      const { key, info } = await keys.create(name);
      console.log(`Created key ${info.id} for "${name}". It is shown only this once:\n${key}`);
    } else if (sub === 'list') {
      for (const k of await keys.list()) {
        const state = k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'active';
        console.log(
          `${k.id}  ${k.prefix}…  ${k.name}  created ${new Date(k.createdAt).toISOString()}  ${state}`,
        );
      }
    } else if (sub === 'revoke') {
      const target = rest[0];
      if (!target) usage();
      const n = await keys.revoke(target);
      if (n === 0) {
        console.error(`no active key matches "${target}"`);
        process.exitCode = 1;
      } else console.log(`revoked ${n} key${n > 1 ? 's' : ''}`);
    } else usage();
  } finally {
    await database.close();
  }
}
