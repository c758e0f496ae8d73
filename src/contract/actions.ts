import { type Static, Type } from 'typebox';

const Selector = Type.String({ minLength: 1, maxLength: 2000, description: 'CSS selector' });
const strict = { additionalProperties: false } as const;

/** The spec's step shapes without `scrape`: what `actions` accepts on scrape and screenshot. */
const ActionSteps = [
  Type.Object(
    { type: Type.Literal('click'), selector: Selector },
    { ...strict, description: 'Click the first element matching selector' },
  ),
  Type.Object(
    { type: Type.Literal('type'), selector: Selector, text: Type.String({ maxLength: 100_000 }) },
    { ...strict, description: 'Fill the first matching input with text' },
  ),
  Type.Object(
    { type: Type.Literal('wait'), milliseconds: Type.Integer({ minimum: 0, maximum: 30_000 }) },
    { ...strict, description: 'Pause (at most 30 s)' },
  ),
  Type.Object(
    {
      type: Type.Literal('press'),
      key: Type.String({
        minLength: 1,
        maxLength: 50,
        description: 'Key name, e.g. Enter, Tab, ArrowDown',
      }),
    },
    { ...strict, description: 'Press a key on the focused element' },
  ),
  Type.Object(
    {
      type: Type.Literal('scroll'),
      direction: Type.Optional(
        Type.Union([Type.Literal('up'), Type.Literal('down')], { description: 'default down' }),
      ),
      selector: Type.Optional(Selector),
    },
    { ...strict, description: 'Scroll the page (or an element) by one screen' },
  ),
  Type.Object(
    {
      type: Type.Literal('waitForSelector'),
      selector: Selector,
      timeout: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 30_000,
          description: 'ms, default 10000, at most 30000',
        }),
      ),
    },
    { ...strict, description: 'Wait until an element matching selector exists' },
  ),
  Type.Object(
    { type: Type.Literal('navigate'), url: Type.String({ minLength: 1 }) },
    { ...strict, description: 'Open another URL (http or https)' },
  ),
  Type.Object(
    { type: Type.Literal('goBack') },
    { ...strict, description: 'Go back one page in history' },
  ),
] as const;

export const Action = Type.Union([...ActionSteps]);
export type Action = Static<typeof Action>;

export const Actions = Type.Array(Action, {
  maxItems: 100,
  description: 'Browser actions run after the page loads',
});

/** A sequence step: any action, or `scrape` to capture the page (a breakpoint; the sequence runner handles it itself). */
export const SequenceStep = Type.Union([
  ...ActionSteps,
  Type.Object({ type: Type.Literal('scrape') }, { ...strict, description: 'Capture the page' }),
]);
export type SequenceStep = Static<typeof SequenceStep>;
