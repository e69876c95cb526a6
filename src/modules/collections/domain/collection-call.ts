import { conflict, DomainError, ErrorKind, invalid, notFound } from '../../../common/errors/domain-error.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

export const CallStatus = stringEnum('PENDING', 'CALLED', 'RESOLVED');
export type CallStatus = EnumValue<typeof CallStatus>;

export const CALL_STATUSES = Object.values(CallStatus);

/** Why a call was closed: by the collector, by the deal coming up to date, or by the device being taken back. */
export const Resolution = stringEnum('COLLECTOR', 'PAYMENT', 'BONUS_DAYS', 'REPOSSESSED');
export type Resolution = EnumValue<typeof Resolution>;

export const RESOLUTIONS = Object.values(Resolution);

/**
 * Who may work on a call (DESIGN part 10): a collector only on the calls assigned to them; ADMIN and
 * OPERATOR (who supervise collections) on any.
 */
export interface CallActor {
  id: number;
  isCollector: boolean;
}

export function checkMayUpdate(actor: CallActor, assignedTo: number | null): void {
  if (actor.isCollector && assignedTo !== actor.id) throw notYourCall();
}

/** A collector may only claim a call for themselves, and only one that nobody else holds. */
export function checkMayAssign(actor: CallActor, assignedTo: number | null, assignee: number): void {
  if (actor.isCollector && (assignee !== actor.id || (assignedTo !== null && assignedTo !== actor.id)))
    throw notYourCall();
}

/** The only moves a collector may make: PENDING → CALLED → RESOLVED. */
const NEXT: Record<CallStatus, CallStatus | null> = {
  [CallStatus.PENDING]: CallStatus.CALLED,
  [CallStatus.CALLED]: CallStatus.RESOLVED,
  [CallStatus.RESOLVED]: null,
};

export function checkTransition(callId: number, from: CallStatus, to: CallStatus): void {
  if (NEXT[from] !== to) {
    const allowed = NEXT[from];
    throw conflict(
      'CALL_TRANSITION_NOT_ALLOWED',
      `Call ${callId} is ${from}; it can ${allowed ? `only move to ${allowed}` : 'no longer change'}, not to ${to}.`,
    );
  }
}

/** A call can be handed to a collector until it is resolved. */
export function checkAssignable(callId: number, status: CallStatus): void {
  if (status === CallStatus.RESOLVED) throw conflict('CALL_RESOLVED', `Call ${callId} is resolved.`);
}

/** A promise to pay lies today or later. */
export function checkPromiseDate(promisedate: string | undefined, today: string): void {
  if (promisedate !== undefined && promisedate < today)
    throw invalid('PROMISE_IN_PAST', `promisedate ${promisedate} is before today (${today}).`);
}

export const callNotFound = (id: number) => notFound('CALL_NOT_FOUND', `Call ${id} not found.`);
export const assigneeNotCollector = (userId: number) =>
  conflict('ASSIGNEE_NOT_COLLECTOR', `User ${userId} is not an active collector.`);
const notYourCall = () => new DomainError(ErrorKind.FORBIDDEN, 'CALL_NOT_ASSIGNED_TO_YOU', 'Forbidden.');
