import createClient, { type Middleware } from 'openapi-fetch';
import i18n from '../i18n';
import type { components, paths } from './schema';
import { currentSession, sessionExpired } from './session';

export type Schemas = components['schemas'];

/** An answer other than 2xx: the service's `{message}` and the status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    const session = currentSession();
    if (session) request.headers.set('x-access-token', session.accessToken);
    return request;
  },
  async onResponse({ request, response }) {
    // A refused token on a protected route ends the session; sign-in's own 401 is a wrong password.
    if (response.status === 401 && new URL(request.url).pathname.startsWith('/finance/') && currentSession()) {
      const body = (await response.clone().json().catch(() => ({}))) as { message?: string };
      sessionExpired(body.message ?? 'Unauthorized!');
    }
    return response;
  },
};

/** The only HTTP client of the web client: typed from the service's OpenAPI document (schema.d.ts). */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(auth);

/** The data of an openapi-fetch answer, or an ApiError with the service's message. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer: Awaited<typeof call>;
  try {
    answer = await call;
  } catch (cause) {
    // no answer at all (offline, the service down, the connection cut): the browser's "Failed to fetch" says nothing to an operator
    if (cause instanceof TypeError) throw new ApiError(i18n.t('common.unreachable'), 0);
    throw cause;
  }
  const { data, error, response } = answer;
  if (!response.ok) {
    const message = (error as { message?: string } | undefined)?.message ?? `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status);
  }
  return data as T;
}
