/**
 * The inputs of the operations that render a page in the browser (screenshot, PDF): their shapes
 * and the checks a schema cannot express, each an InputError naming the field.
 */
import { type Static, Type } from 'typebox';
import type { Config } from '../config.ts';
import { Actions, SCREENSHOT_VIEWPORT } from '../contract/index.ts';
import { checkSteps, ProxyObject, requireHttpUrl, requireProxy, urlBody } from './input-fields.ts';
import { PDF_TIMEOUT_MS, type PdfOptions } from './pdf.ts';
import type { ScreenshotInput } from './screenshot.ts';

export const ScreenshotBody = Type.Object(
  {
    url: Type.String({ minLength: 1 }),
    fullPage: Type.Optional(Type.Boolean({ description: 'Whole scrollable page; default true' })),
    selector: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'Capture only the first element matching this CSS selector',
      }),
    ),
    width: Type.Optional(
      Type.Integer({
        minimum: SCREENSHOT_VIEWPORT.width.minimum,
        maximum: SCREENSHOT_VIEWPORT.width.maximum,
        description: `Viewport width; default ${SCREENSHOT_VIEWPORT.width.default}`,
      }),
    ),
    height: Type.Optional(
      Type.Integer({
        minimum: SCREENSHOT_VIEWPORT.height.minimum,
        maximum: SCREENSHOT_VIEWPORT.height.maximum,
        description: `Viewport height; default ${SCREENSHOT_VIEWPORT.height.default}`,
      }),
    ),
    waitFor: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 30_000,
        description: 'Extra wait in ms after load and actions',
      }),
    ),
    actions: Type.Optional(Actions),
    proxy: Type.Optional(ProxyObject),
  },
  { additionalProperties: false },
);

const MarginValue = Type.Union([
  Type.String({
    pattern: '^\\d+(\\.\\d+)?(px|in|cm|mm)$',
    description: 'CSS length: px, in, cm or mm',
  }),
  Type.Number({ minimum: 0, maximum: 2000, description: 'pixels' }),
]);

const pdfFields = {
  title: Type.Optional(Type.String({ maxLength: 200, description: 'Names the file' })),
  pageSize: Type.Optional(
    Type.Union([Type.Literal('A4'), Type.Literal('Letter'), Type.Literal('Legal')], {
      description: 'default A4',
    }),
  ),
  landscape: Type.Optional(Type.Boolean({ description: 'default false' })),
  margin: Type.Optional(
    Type.Object(
      {
        top: Type.Optional(MarginValue),
        right: Type.Optional(MarginValue),
        bottom: Type.Optional(MarginValue),
        left: Type.Optional(MarginValue),
      },
      { additionalProperties: false },
    ),
  ),
  printBackground: Type.Optional(Type.Boolean({ description: 'default true' })),
  timeoutMs: Type.Optional(
    Type.Integer({
      minimum: PDF_TIMEOUT_MS.min,
      maximum: PDF_TIMEOUT_MS.max,
      description: `Load deadline in ms; default ${PDF_TIMEOUT_MS.default}`,
    }),
  ),
};

export const PdfHtmlBody = Type.Object(
  { html: Type.String({ minLength: 1 }), ...pdfFields },
  { additionalProperties: false },
);
export const PdfUrlBody = urlBody(pdfFields);

export function screenshotInput(
  body: Static<typeof ScreenshotBody>,
  config: Config,
): ScreenshotInput {
  const url = requireHttpUrl(body.url, 'url');
  checkSteps(body.actions, 'actions');
  const proxy = requireProxy(config, body.proxy);
  const { fullPage, selector, width, height, waitFor, actions } = body;
  return { url, fullPage, selector, width, height, waitFor, actions, proxy };
}

export function pdfUrlInput(body: Static<typeof PdfUrlBody>): PdfOptions & { url: string } {
  return { ...body, url: requireHttpUrl(body.url, 'url') };
}
