import { Type } from 'typebox';

export const CacheDeleteQuery = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Delete the cached results of this URL (matched in its normalised spelling)',
      }),
    ),
    prefix: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Delete the cached results of every URL starting with this absolute URL',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CacheDeleteResponse = Type.Object({
  success: Type.Literal(true),
  deleted: Type.Integer({ description: "Entries deleted; only the caller's own are touched" }),
});
