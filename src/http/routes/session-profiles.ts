import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from '../deps.ts';
import { Deleted, Profile, ProfileBody, ProfileList, ProfileParams } from '../schemas/sessions.ts';
import { mapped, sessionRoute } from './session-errors.ts';

/** Named browser profiles of the key: whole user-data folders sessions run on, one at a time. */
export const sessionProfileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const sessions = deps.services.sessions;

  app.post(
    '/v1/browser-sandbox/profiles',
    sessionRoute(
      'Create an empty named browser profile (409 if the key has one of that name)',
      Profile,
      { body: ProfileBody },
    ),
    async (request) =>
      mapped(() => sessions.profiles.create(request.user.userId, request.body.name)),
  );

  app.get(
    '/v1/browser-sandbox/profiles',
    sessionRoute("The key's browser profiles, by name", ProfileList),
    async (request) =>
      mapped(async () => ({ profiles: await sessions.profiles.list(request.user.userId) })),
  );

  app.get(
    '/v1/browser-sandbox/profiles/:name',
    sessionRoute('One browser profile', Profile, { params: ProfileParams }),
    async (request) =>
      mapped(() => sessions.profiles.get(request.user.userId, request.params.name)),
  );

  app.delete(
    '/v1/browser-sandbox/profiles/:name',
    sessionRoute(
      'Delete a browser profile and its folder (409 while a session holds it)',
      Deleted,
      { params: ProfileParams },
    ),
    async (request) =>
      mapped(async () => {
        await sessions.profiles.delete(request.user.userId, request.params.name);
        return { success: true as const };
      }),
  );
};
