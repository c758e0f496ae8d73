import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Route validators compiled on a route's first request instead of at start. Compiling every
 * route's schemas with Ajv was the largest part of a server's start after loading its modules
 * (0.6 s of CPU of about 2.5 s), for routes most processes never see; a route's first request
 * pays for its own (milliseconds). Fastify reads `errors` off the validator after a call, as
 * from an Ajv function, so the wrapper carries them over. Written here because Fastify has no
 * lazy mode; the compiling itself stays Fastify's own (@fastify/ajv-compiler).
 */
export function lazyValidators(build: BuildCompilerFromPool): BuildCompilerFromPool {
  return (externalSchemas, options) => {
    // Fastify calls it with its route definition ({ schema, method, url, httpPart }), not the
    // bare schema the package's type names.
    const compile = build(externalSchemas, options) as unknown as (route: unknown) => Validate;
    const lazyCompile = (route: unknown): Validate => {
      let validate: Validate | undefined;
      const lazy: Validate = (data) => {
        validate ??= compile(route);
        const result = validate(data);
        lazy.errors = validate.errors;
        return result;
      };
      return lazy;
    };
    return lazyCompile as unknown as ReturnType<BuildCompilerFromPool>;
  };
}
