import i18n from '../i18n';
import { ApiError } from './client';
import { currentSession, sessionExpired } from './session';

/**
 * Downloads a file the service streams (an export): the token goes in the `x-access-token` header,
 * never in a URL; the answer becomes a Blob saved through a short-lived object URL.
 */
export async function download(path: string, filename: string): Promise<void> {
  const session = currentSession();
  // no answer at all (offline, the connection cut): said as the API client says it, not as the browser's "Failed to fetch"
  const response = await fetch(path, { headers: session ? { 'x-access-token': session.accessToken } : {} }).catch((cause: unknown) => {
    throw cause instanceof TypeError ? new ApiError(i18n.t('common.unreachable'), 0) : cause;
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    // as the API client does: a refused token (expired, password changed, user disabled) ends the session
    if (response.status === 401 && session) sessionExpired(body.message ?? 'Unauthorized!');
    throw new ApiError(body.message ?? `${response.status} ${response.statusText}`, response.status);
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
