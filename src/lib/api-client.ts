import ky, { HTTPError, type KyInstance, type NormalizedOptions, type Options } from 'ky';
import type { Problem } from '../../contract/problem';
import { clearSession, markSessionEnded, readToken } from './session';

/** An HTTP failure with the server's problem JSON (DESIGN.md §2) already read. */
export class ApiError extends HTTPError {
  readonly status: number;
  readonly problem: Problem;

  constructor(response: Response, request: Request, options: NormalizedOptions, problem: Problem) {
    super(response, request, options);
    this.name = 'ApiError';
    this.status = response.status;
    this.problem = problem;
    if (problem.message) this.message = problem.message;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Per-call flags, passed as ky's `context`. `anonymous` sends no token and never triggers the
 * session-ended redirect: the login call must show "wrong password", not bounce to /login.
 */
export interface ApiContext {
  anonymous?: boolean;
  /** The sign-out call: its 401 (a token already ended) is no news and redirects nowhere. */
  signingOut?: boolean;
}

interface ApiConfig {
  baseUrl: string;
  onUnauthorized: () => void;
}

const config: ApiConfig = {
  baseUrl: '/api',
  onUnauthorized: () => window.location.assign('/login'),
};

async function readProblem(response: Response): Promise<Problem> {
  const fallback: Problem = {
    type: 'about:blank',
    title: response.statusText,
    status: response.status,
    message: '',
  };
  try {
    const body: unknown = await response.clone().json();
    if (body && typeof body === 'object') return { ...fallback, ...(body as Partial<Problem>) };
  } catch {
    // Not JSON (a proxy's HTML error page, an empty body): the status alone has to do.
  }
  return fallback;
}

function isAnonymous(options: NormalizedOptions): boolean {
  return (options.context as ApiContext).anonymous === true;
}

/**
 * The last answer of each GET with its ETag, in this tab's memory only (issue 16): the API says
 * `no-store`, so the browser keeps no copy a later user of the device could read, and a refresh
 * sends If-None-Match itself; a 304 is answered from here. Tied to the token that read it.
 */
interface KeptAnswer {
  token: string;
  etag: string;
  body: ArrayBuffer;
  headers: [string, string][];
}
const kept = new Map<string, KeptAnswer>();
const KEPT_ANSWERS = 32;
const KEPT_BYTES = 2 * 1024 * 1024;

/** Forgets every kept answer (sign-out). */
export function forgetAnswers(): void {
  kept.clear();
}

function keep(request: Request, response: Response): Response {
  const token = request.headers.get('Authorization');
  if (request.method !== 'GET' || !token) return response;
  const known = kept.get(request.url);
  if (response.status === 304 && known?.token === token) {
    return new Response(known.body.slice(0), { status: 200, headers: known.headers });
  }
  const etag = response.headers.get('ETag');
  if (!response.ok || !etag) return response;
  const headers = [...response.headers];
  // Copied beside the caller's read, not before it: the answer is not held up for the copy.
  response
    .clone()
    .arrayBuffer()
    .then((body) => {
      kept.delete(request.url);
      if (body.byteLength > KEPT_BYTES) return;
      kept.set(request.url, { token, etag, body, headers });
      // The oldest goes first (a Map keeps insertion order).
      if (kept.size > KEPT_ANSWERS) kept.delete(kept.keys().next().value!);
    })
    .catch(() => {
      // The read was cut off (page leaving, request aborted): nothing to keep.
    });
  return response;
}

function build(baseUrl: string): KyInstance {
  return ky.create({
    prefixUrl: baseUrl,
    timeout: 15_000,
    // Only reads are retried; a resent POST could register an account or save a note twice.
    retry: { limit: 2, methods: ['get'] },
    hooks: {
      beforeRequest: [
        (request, options) => {
          const token = readToken();
          if (token && !isAnonymous(options)) request.headers.set('Authorization', `Bearer ${token}`);
          const known = request.method === 'GET' ? kept.get(request.url) : undefined;
          if (known && known.token === request.headers.get('Authorization'))
            request.headers.set('If-None-Match', known.etag);
        },
      ],
      afterResponse: [
        (request, _options, response) => keep(request, response),
        (request, options, response) => {
          // Spec §4: a 401 ends the session. Only when a token was sent: an anonymous visitor's
          // 401 (registering without being an Admin) is an answer to show, not an expired session.
          if (
            response.status === 401 &&
            request.headers.has('Authorization') &&
            !isAnonymous(options) &&
            !(options.context as ApiContext).signingOut
          ) {
            clearSession();
            markSessionEnded();
            config.onUnauthorized();
          }
        },
      ],
      beforeError: [
        async (error) =>
          new ApiError(error.response, error.request, error.options, await readProblem(error.response)),
      ],
    },
  });
}

let client = build(config.baseUrl);

/** Points the client at another API root (tests use a real server on a random port). */
export function configureApi(options: Partial<ApiConfig>): void {
  Object.assign(config, options);
  client = build(config.baseUrl);
}

type Call = (url: string, options?: Options & { context?: ApiContext }) => ReturnType<KyInstance['get']>;

/** The one HTTP client of the app; paths are relative to the API root, e.g. `Registration/login`. */
export const api: Record<'get' | 'post' | 'put' | 'delete', Call> = {
  get: (url, options) => client.get(url, options),
  post: (url, options) => client.post(url, options),
  put: (url, options) => client.put(url, options),
  delete: (url, options) => client.delete(url, options),
};
