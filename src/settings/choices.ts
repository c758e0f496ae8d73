/** Providers a search can run on: the spec's four plus the two self-hosters use. */
export const SEARCH_PROVIDERS = [
  'google',
  'bing',
  'chatgpt',
  'perplexity',
  'searxng',
  'brave',
] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];

/** Session browsers the spec names; this build runs only chromium and refuses the others per request. */
export const SESSION_BROWSERS = ['chromium', 'firefox', 'camoufox', 'lightpanda'] as const;

/** The wire format of the LLM endpoint: OpenAI Responses, OpenAI Chat Completions, or Ollama's native chat. */
export const LLM_APIS = ['responses', 'chat-completions', 'ollama'] as const;
export type LlmApi = (typeof LLM_APIS)[number];

/** pino's levels as the server log accepts them. */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
