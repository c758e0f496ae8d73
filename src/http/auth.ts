import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthenticatedUser, KeyStore } from '../store/index.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthenticatedUser;
  }
  interface FastifyContextConfig {
    /** Routes the spec leaves open (health, docs, public files, the session list). */
    public?: boolean;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** Every route needs a valid key unless its config says `public: true`. */
export const authPlugin = fp<{ keys: KeyStore }>(async (app: FastifyInstance, opts) => {
  app.decorateRequest('user', null as unknown as AuthenticatedUser);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public || !request.routeOptions.url) return;
    const key = bearer(request);
    const user = key ? await opts.keys.authenticate(key) : undefined;
    if (!user) {
      throw new ApiError(401, key ? 'invalid or revoked API key' : 'missing API key: send Authorization: Bearer <key>', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    request.user = user;
  });
});
