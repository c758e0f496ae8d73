import { contentTasks } from '../content/index.ts';
import { taskStarted } from '../workers/index.ts';
import { type HttpAnswer, type HttpAnswerReading, readHttpAnswer } from './http-answer.ts';

export interface HttpAnswerTask {
  id: number;
  answer: HttpAnswer;
}

// The content pool's threads run this module: content's own tasks, and the page's beside them.
export const { convert, pdfText, select, selectTags } = contentTasks;

/** Piscina task `httpAnswer`: a fetched page's bytes decoded and judged, its main content converted. */
export function httpAnswer({ id, answer }: HttpAnswerTask): HttpAnswerReading {
  taskStarted(id);
  return readHttpAnswer(answer);
}
