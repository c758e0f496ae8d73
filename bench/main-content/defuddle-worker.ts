/**
 * Defuddle, the second same-run baseline, on a worker thread so that a page it spends minutes on
 * can be cut off (run.ts terminates the worker and counts the page as extracting nothing).
 * Defuddle needs JSDOM in Node: it fails on linkedom.
 */
import { parentPort } from 'node:worker_threads';
import { Defuddle } from 'defuddle/node';
import { JSDOM, VirtualConsole } from 'jsdom';

parentPort!.on('message', async (msg: { html: string; url: string }) => {
  const t0 = performance.now();
  let markdown = '';
  try {
    // Page scripts and stylesheets are not run or fetched, as with the other extractors.
    const dom = new JSDOM(msg.html, { url: msg.url, virtualConsole: new VirtualConsole() });
    markdown = (await Defuddle(dom, msg.url, { markdown: true, useAsync: false })).content ?? '';
  } catch {
    // A page Defuddle throws on counts as extracting nothing.
  }
  parentPort!.postMessage({ markdown, ms: performance.now() - t0 });
});
