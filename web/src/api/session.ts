import type { components } from './schema';

export type Role = components['schemas']['SignInResponse']['role'];
export interface Session {
  id: number;
  username: string;
  role: Role;
  accessToken: string;
}

const KEY = 'payg.session';
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
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}

/** What the app does when the service refuses the token (expired, disabled user): back to sign-in with its message. */
export function onSessionExpired(handler: (message: string) => void): void {
  expiredHandler = handler;
}

export function sessionExpired(message: string): void {
  clearSession();
  expiredHandler(message);
}
