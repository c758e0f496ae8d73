import { convertHtml } from './convert.ts';
import type { ConvertInput, ConvertOutput } from './types.ts';

/** Piscina task: one page converted on a worker thread. */
export default function convert(input: ConvertInput): ConvertOutput {
  return convertHtml(input);
}
