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
        },
      ],
      afterResponse: [
        (request, options, response) => {
          // Spec §4: a 401 ends the session. Only when a token was sent: an anonymous visitor's
          // 401 (registering without being an Admin) is an answer to show, not an expired session.
          if (response.status === 401 && request.headers.has('Authorization') && !isAnonymous(options)) {
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
