import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthenticatedUser, KeyStore } from '../store/index.ts';
import { ApiError } from './errors.ts';

/** A request made inside this process for an already authenticated caller (see `delegate`). */
export interface Delegation {
  /** The Authorization header the in-process requests carry. */
  authorization: string;
  /** Ends it: later requests with the header are refused like an unknown key. */
  end(): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthenticatedUser;
  }
  interface FastifyContextConfig {
    /** Routes the spec leaves open (health, docs, public files, the session list). */
    public?: boolean;
  }
  interface FastifyInstance {
    /**
     * Lets in-process requests (MCP's tool calls) run as a user this request already
     * authenticated, without looking its key up again: the header names a random id that lives
     * in this process's memory only until `end`.
     */
    delegate(user: AuthenticatedUser): Delegation;
  }
}

const DELEGATE_SCHEME = 'Delegate ';

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** Every route needs a valid key unless its config says `public: true`. */
export const authPlugin = fp<{ keys: KeyStore }>(async (app: FastifyInstance, opts) => {
  const delegations = new Map<string, AuthenticatedUser>();
  app.decorate('delegate', (user: AuthenticatedUser): Delegation => {
    const id = randomUUID();
    delegations.set(id, user);
    return { authorization: `${DELEGATE_SCHEME}${id}`, end: () => delegations.delete(id) };
  });
  app.decorateRequest('user', null as unknown as AuthenticatedUser);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public || !request.routeOptions.url) return;
    const header = request.headers.authorization;
    const delegated = header?.startsWith(DELEGATE_SCHEME)
      ? delegations.get(header.slice(DELEGATE_SCHEME.length))
      : undefined;
    if (delegated) {
      request.user = delegated;
      return;
    }
    const key = bearer(request);
    const user = key ? await opts.keys.authenticate(key) : undefined;
    if (!user) {
      throw new ApiError(
        401,
        key ? 'invalid or revoked API key' : 'missing API key: send Authorization: Bearer <key>',
        {
          headers: { 'www-authenticate': 'Bearer' },
        },
      );
    }
    request.user = user;
  });
});
