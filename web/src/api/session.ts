import type { components } from './schema';

export type Role = components['schemas']['SignInResponse']['role'];
export interface Session {
  id: number;
  username: string;
  role: Role;
  accessToken: string;
}

const KEY = 'payg.session';
/** Why the last session ended, until someone signs in: the sign-in page says it however it was reached. */
const NOTICE = 'payg.session-ended';
/** A dialog's values sent with a token the service refused, for the same person once signed in again (this tab only). */
const DRAFT = 'payg.draft';
let expiredHandler: (message: string) => void = () => undefined;

/** The signed-in user, kept in this browser's storage (never in a URL). */
export function currentSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  localStorage.setItem(KEY, JSON.stringify(session));
  sessionStorage.removeItem(NOTICE);
  // what one person typed is not shown to another signing in at this screen
  if (readDraft()?.username !== session.username) sessionStorage.removeItem(DRAFT);
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}

/** What the app does when the service refuses the token (expired, disabled user): back to sign-in with its message. */
export function onSessionExpired(handler: (message: string) => void): void {
  expiredHandler = handler;
}

/**
 * The person signed out: nothing of the session, nor why an earlier one ended, stays behind, and the
 * service ends the token (and any copy of it), so one read from this browser before is of no use.
 * The browser forgets the session at once, whether or not the service can be told.
 */
export function signOut(): void {
  const session = currentSession();
  clearSession();
  sessionStorage.removeItem(NOTICE);
  sessionStorage.removeItem(DRAFT);
  if (session) void fetch('/api/auth/signout', { method: 'POST', keepalive: true, headers: { 'x-access-token': session.accessToken } }).catch(() => undefined);
}

/** Forms open on the page, each keeping what was typed in it (keepDraft) when the session ends under it. */
const keepers = new Set<() => void>();
export function onSessionEnding(keep: () => void): () => void {
  keepers.add(keep);
  return () => keepers.delete(keep);
}

export function sessionExpired(message: string): void {
  // before the session is gone (a draft belongs to its user) and the page with the form
  for (const keep of keepers) keep();
  clearSession();
  sessionStorage.setItem(NOTICE, message);
  expiredHandler(message);
}

/** The service's message from when the session was refused (expired, password changed, user disabled), if it was. */
export function sessionEndedNotice(): string | null {
  return sessionStorage.getItem(NOTICE);
}

interface Draft {
  key: string;
  username: string;
  values: Record<string, unknown>;
}

function readDraft(): Draft | null {
  try {
    const raw = sessionStorage.getItem(DRAFT);
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}

/** Keeps a dialog's values while they are sent: a session that expires as they go does not lose what was typed. */
export function keepDraft(key: string, values: Record<string, unknown>): void {
  const username = currentSession()?.username;
  if (username) sessionStorage.setItem(DRAFT, JSON.stringify({ key, username, values }));
}

/** The request was answered (done, or refused for another reason than the session): nothing to bring back. */
export function dropDraft(key: string): void {
  if (readDraft()?.key === key) sessionStorage.removeItem(DRAFT);
}

/** The values kept for the dialog `key`, once, if the person signed in now is the one who typed them. */
export function takeDraft(key: string): Record<string, unknown> | null {
  const draft = readDraft();
  if (!draft || draft.key !== key || draft.username !== currentSession()?.username) return null;
  sessionStorage.removeItem(DRAFT);
  return draft.values;
}
