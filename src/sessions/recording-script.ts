import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * rrweb's recorder bundle (`@rrweb/record`, the recording half of rrweb: 77 kB against the whole
 * package's 282 kB, which a page would compile on every document), from node_modules (never a
 * CDN), without its source-map comment. Read once, on the first recorded page: a service that
 * records nothing never reads it.
 */
let bundle: string | undefined;
function rrwebBundle(): string {
  bundle ??= readFileSync(
    join(dirname(fileURLToPath(import.meta.resolve('@rrweb/record'))), 'record.umd.min.cjs'),
    'utf8',
  ).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  return bundle;
}

/**
 * The name of the isolated world the recorder runs in: a world of the service's own, whose
 * globals and patched prototypes the page's scripts never see.
 */
export const RECORDING_WORLD = 'webdata-recording';

/**
 * The binding the recorder hands its events to, installed in the recording world only
 * (Runtime.addBinding with `executionContextName`): the page's own world has no such function.
 */
export const RECORDING_BINDING = 'webdataRecorded';

/** Bytes a page may buffer while it cannot hand events on; past it the buffer is dropped and a full snapshot taken afresh. */
const MAX_BUFFERED = 8 * 1024 * 1024;

/** How long events wait to be handed on together: one message for a burst, not one per event. */
const BATCH_MS = 50;

/**
 * The script that records one document: rrweb with every input masked (passwords included, and
 * what is typed into any other field), each event one JSON line tagged with the page's number,
 * handed to the service in batches, at once when the document is hidden or left, and on
 * `FLUSH_EXPRESSION`. Evaluated once per document in the recording world; a second evaluation in
 * the same document changes nothing.
 */
export function recorderSource(pageNo: number): string {
  return `(function (pageNo, maxBuffered, batchMs, binding) {
if (globalThis.__webdataRecording) return;
var module = { exports: {} };
var exports = module.exports;
${rrwebBundle()}
;var rrweb = module.exports;
var lines = [], bytes = 0, dropped = false, timer = 0, resnapshot = false, stop = null;
function flush() {
  clearTimeout(timer);
  timer = 0;
  var send = globalThis[binding];
  if (lines.length === 0 || typeof send !== 'function') return;
  var out = lines.join('\\n');
  lines = []; bytes = 0;
  send(out);
}
function push(line) {
  lines.push(line);
  if (!timer) timer = setTimeout(flush, batchMs);
}
function overflow() {
  lines = []; bytes = 0;
  if (resnapshot) {
    // A full snapshot alone is over the limit: the document is too large to record.
    dropped = true;
    setTimeout(function () { if (stop) stop(); }, 0);
    push(JSON.stringify({ type: 5, timestamp: Date.now(), pageId: pageNo, data: { tag: 'webdata-stopped', payload: { reason: 'a full snapshot over ' + maxBuffered + ' bytes' } } }));
    return;
  }
  dropped = true;
  setTimeout(function () {
    dropped = false;
    resnapshot = true;
    rrweb.record.addCustomEvent('webdata-dropped', { reason: 'events over ' + maxBuffered + ' bytes waiting' });
    rrweb.record.takeFullSnapshot(true);
    resnapshot = false;
  }, batchMs);
}
function start() {
stop = rrweb.record({
  emit: function (event) {
    if (dropped) return;
    event.pageId = pageNo;
    var line = JSON.stringify(event);
    bytes += line.length;
    if (bytes > maxBuffered) return overflow();
    push(line);
  },
  maskAllInputs: true,
});
}
// The first snapshot waits until the load event is over, so the page's load does not wait for it.
if (document.readyState === 'complete') start();
else addEventListener('load', function () { setTimeout(start, 0); }, { once: true, capture: true });
addEventListener('pagehide', flush, true);
addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') flush(); }, true);
globalThis.__webdataRecording = { flush: flush };
})(${pageNo}, ${MAX_BUFFERED}, ${BATCH_MS}, ${JSON.stringify(RECORDING_BINDING)});`;
}

/** Hands on what a document recorded and has not handed on yet. */
export const FLUSH_EXPRESSION =
  'globalThis.__webdataRecording && globalThis.__webdataRecording.flush()';
