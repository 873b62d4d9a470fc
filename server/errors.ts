import type { Problem } from '../contract/problem';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An error a service throws on purpose; the problem-json plugin turns it into RFC 9457 JSON. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Partial<
      Pick<Problem, 'title' | 'errors' | 'requireNotePopup' | 'detail' | 'takenLeadIds'>
    > & {
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
  }
}

export function problem(status: number, message: string, extra: Partial<Problem> = {}): Problem {
  const title = extra.title ?? titles[status] ?? 'Error';
  return { type: 'about:blank', title, status, message, ...extra };
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(400, message, errors ? { errors } : {});
export const unauthorized = (message = 'Sign in to continue.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message, { title: message });
