import { Type } from 'typebox';

export const Timestamp = Type.String({ format: 'date-time' });

export const Cost = Type.Number({ description: 'USD' });
