import { wouldLeaveNoAdmin } from './admin-guard.js';

describe('wouldLeaveNoAdmin', () => {
  const admin = (id: number, active = true) => ({ id, role: 'ADMIN', active });

  it('refuses to disable the only active admin', () => {
    expect(wouldLeaveNoAdmin(admin(1), [1])).toBe(true);
  });

  it('allows disabling an admin while another active admin remains', () => {
    expect(wouldLeaveNoAdmin(admin(1), [1, 2])).toBe(false);
  });

  it('does not mind users who are not active admins', () => {
    expect(wouldLeaveNoAdmin({ id: 3, role: 'OPERATOR', active: true }, [1])).toBe(false);
    expect(wouldLeaveNoAdmin(admin(2, false), [1])).toBe(false);
  });
});
