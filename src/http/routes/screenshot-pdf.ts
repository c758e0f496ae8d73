import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PdfResult, ScreenshotResult } from '../../contract/index.ts';
import {
  PdfHtmlBody,
  PdfUrlBody,
  pdfFromHtml,
  pdfFromUrl,
  pdfUrlInput,
  ScreenshotBody,
  screenshot,
  screenshotInput,
} from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { operationRoute, parsed } from '../operations.ts';
import { ErrorResponse } from '../schemas/common.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse };

/** Screenshots and PDFs: pages rendered by the browser, stored as public files. */
export const screenshotPdfRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  operationRoute(app, deps, {
    url: '/v1/screenshot',
    schema: {
      tags: ['render'],
      summary: 'Capture a page or one element as a PNG',
      body: ScreenshotBody,
      response: { 200: ScreenshotResult, ...errors },
    },
    prepare: parsed((body) => screenshotInput(body, deps.services.config), screenshot),
  });
  operationRoute(app, deps, {
    url: '/v1/pdf/html',
    schema: {
      tags: ['render'],
      summary: 'Render HTML to a PDF',
      body: PdfHtmlBody,
      response: { 200: PdfResult, ...errors },
    },
    prepare: (body) => (ctx) => pdfFromHtml(body, ctx),
  });
  operationRoute(app, deps, {
    url: '/v1/pdf/url',
    schema: {
      tags: ['render'],
      summary: 'Open a URL in the browser and print it to a PDF',
      body: PdfUrlBody,
      response: { 200: PdfResult, ...errors },
    },
    prepare: parsed(pdfUrlInput, pdfFromUrl),
  });
};
