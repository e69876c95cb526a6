/**
 * The rule that keeps the service administrable: an active ADMIN may be disabled only while another
 * active ADMIN remains. `activeAdminIds` must be read under a lock that every disable holds, so two
 * admins disabling each other at the same moment cannot both pass.
 */
export function wouldLeaveNoAdmin(target: { id: number; role: string; active: boolean }, activeAdminIds: readonly number[]): boolean {
  if (target.role !== 'ADMIN' || !target.active) return false;
  return activeAdminIds.filter((id) => id !== target.id).length === 0;
}
