import type { LlmSettings } from '../config.ts';
import { requestJson, UpstreamError } from '../upstream/index.ts';

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmCall {
  model: string;
  /** The system prompt. */
  instructions: string;
  messages: LlmMessage[];
  /** A JSON Schema the answer must follow, sent as the provider's structured output format. */
  schema?: object;
  timeoutMs: number;
}

/**
 * Why the model stopped, in one vocabulary across providers: `stop` is a normal end; `length` a
 * token limit cut the answer; `content_filter` and `refusal` mean the provider withheld it.
 */
export type FinishReason = 'stop' | 'length' | 'content_filter' | 'refusal' | (string & {});

export interface LlmAnswer {
  text: string;
  finishReason: FinishReason;
}

const SERVICE = 'the LLM';

/** Whether summaries and extraction have a model: an OpenAI-style API needs a key; a local Ollama does not. */
export function llmConfigured(settings: LlmSettings): boolean {
  return settings.api === 'ollama' || settings.apiKey !== '';
}

interface ResponsesAnswer {
  status?: string;
  error?: { message?: string } | null;
  incomplete_details?: { reason?: string } | null;
  output?: Array<{
    type?: string;
    content?: Array<{ type?: string; text?: string; refusal?: string }>;
  }>;
  output_text?: string;
}

interface ChatAnswer {
  choices?: Array<{
    finish_reason?: string | null;
    message?: { content?: string | null; refusal?: string | null };
  }>;
}

interface OllamaAnswer {
  message?: { content?: string };
  done_reason?: string;
  error?: string;
}

function responsesAnswer(answer: ResponsesAnswer): LlmAnswer {
  if (answer.status === 'failed')
    throw new UpstreamError('failed', SERVICE, answer.error?.message ?? 'the response failed');
  const parts: string[] = [];
  let refused = false;
  for (const item of answer.output ?? []) {
    if (item.type !== 'message') continue;
    for (const part of item.content ?? []) {
      if (part.type === 'output_text' && part.text) parts.push(part.text);
      if (part.type === 'refusal') refused = true;
    }
  }
  const text = parts.length > 0 ? parts.join('\n') : (answer.output_text ?? '');
  if (answer.status === 'incomplete') {
    const reason = answer.incomplete_details?.reason;
    return {
      text,
      finishReason: reason === 'max_output_tokens' ? 'length' : (reason ?? 'incomplete'),
    };
  }
  return { text, finishReason: refused ? 'refusal' : 'stop' };
}

function chatAnswer(answer: ChatAnswer): LlmAnswer {
  const choice = answer.choices?.[0];
  if (!choice) throw new UpstreamError('failed', SERVICE, 'the answer has no choices');
  if (choice.message?.refusal) return { text: '', finishReason: 'refusal' };
  return { text: choice.message?.content ?? '', finishReason: choice.finish_reason ?? 'stop' };
}

function ollamaAnswer(answer: OllamaAnswer): LlmAnswer {
  if (answer.error) throw new UpstreamError('failed', SERVICE, answer.error);
  return { text: answer.message?.content ?? '', finishReason: answer.done_reason ?? 'stop' };
}

/** The request in the configured provider's wire format, and how to read its answer. */
function wire(
  settings: LlmSettings,
  call: LlmCall,
): { path: string; body: object; read: (answer: never) => LlmAnswer } {
  // Both chat wire formats (OpenAI's and Ollama's) take the instructions as the first message.
  const chat = (fields: object) => ({
    model: call.model,
    messages: [{ role: 'system', content: call.instructions }, ...call.messages],
    ...fields,
  });
  const structured = call.schema !== undefined && settings.structuredOutput;
  // Not strict: OpenAI's strict mode refuses common schemas (optional properties); ajv checks the answer anyway.
  const namedSchema = { name: 'extraction', schema: call.schema, strict: false };
  switch (settings.api) {
    case 'responses':
      return {
        path: '/responses',
        body: {
          model: call.model,
          instructions: call.instructions,
          // One message goes as plain text, which every Responses-compatible server reads.
          input: call.messages.length === 1 ? call.messages[0]!.content : call.messages,
          // Pages are fetched for the caller, not to be kept by the model's provider.
          store: false,
          ...(structured ? { text: { format: { type: 'json_schema', ...namedSchema } } } : {}),
        },
        read: responsesAnswer,
      };
    case 'chat-completions':
      return {
        path: '/chat/completions',
        body: chat({
          store: false,
          ...(structured
            ? { response_format: { type: 'json_schema', json_schema: namedSchema } }
            : {}),
        }),
        read: chatAnswer,
      };
    case 'ollama':
      return {
        path: '/api/chat',
        body: chat({ stream: false, ...(structured ? { format: call.schema } : {}) }),
        read: ollamaAnswer,
      };
  }
}

/**
 * One call of the configured model. Throws UpstreamError when the call fails, is refused or passes
 * `call.timeoutMs` (kind `timeout`); rethrows when `signal` (the caller's) is aborted.
 */
export async function complete(
  settings: LlmSettings,
  call: LlmCall,
  signal: AbortSignal,
): Promise<LlmAnswer> {
  const { path, body, read } = wire(settings, call);
  const deadline = AbortSignal.timeout(call.timeoutMs);
  let answer: unknown;
  try {
    answer = await requestJson(SERVICE, `${settings.baseUrl}${path}`, {
      method: 'POST',
      bearer: settings.apiKey,
      body,
      signal: AbortSignal.any([signal, deadline]),
    });
  } catch (err) {
    if (signal.aborted) throw err;
    if (deadline.aborted)
      throw new UpstreamError('timeout', SERVICE, `did not answer within ${call.timeoutMs} ms`);
    throw err;
  }
  const out = read(answer as never);
  return { text: out.text.trim(), finishReason: out.finishReason };
}

/**
 * `complete` for a feature that names its own failures: any failure but the caller's abort becomes
 * `fail(reason)`, the reason written for the API user and naming the LLM.
 */
export async function completeOr(
  settings: LlmSettings,
  call: LlmCall,
  signal: AbortSignal,
  fail: (reason: string) => Error,
): Promise<LlmAnswer> {
  try {
    return await complete(settings, call, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw fail(
      err instanceof UpstreamError ? err.message : `the LLM failed: ${(err as Error).message}`,
    );
  }
}
