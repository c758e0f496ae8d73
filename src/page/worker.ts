import { taskStarted } from '../workers/index.ts';
import { type HttpAnswer, type HttpAnswerReading, readHttpAnswer } from './http-answer.ts';

export interface HttpAnswerTask {
  id: number;
  answer: HttpAnswer;
}

// The content pool's threads run this module: content's own tasks, and the page's beside them.
// Taken from content's worker module, not its index, so a thread loads no more than those tasks.
export { convert, listing, pdfText, select, selectTags } from '../content/worker.ts';

/** Piscina task `httpAnswer`: a fetched page's bytes decoded and judged, its main content converted. */
export function httpAnswer({ id, answer }: HttpAnswerTask): HttpAnswerReading {
  taskStarted(id);
  return readHttpAnswer(answer);
}
