import { Type } from 'typebox';

export const ErrorResponse = Type.Object({
  success: Type.Literal(false),
  error: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
});
