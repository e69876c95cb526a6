import { passwordProblem } from './password-policy.js';

describe('passwordProblem', () => {
  it('accepts 12 to 128 characters that are not all whitespace', () => {
    expect(passwordProblem('a'.repeat(12))).toBeUndefined();
    expect(passwordProblem('a'.repeat(128))).toBeUndefined();
    expect(passwordProblem('  twelve chars  ')).toBeUndefined();
  });

  it('refuses fewer than 12 or more than 128 characters, naming the field', () => {
    expect(passwordProblem('a'.repeat(11))).toBe('password must be at least 12 characters');
    expect(passwordProblem('a'.repeat(129))).toBe('password must be at most 128 characters');
    expect(passwordProblem('short', 'ADMIN_PASSWORD')).toBe('ADMIN_PASSWORD must be at least 12 characters');
  });

  it('refuses a password of only whitespace', () => {
    expect(passwordProblem(' '.repeat(12))).toBe('password must not be only whitespace');
    expect(passwordProblem('\t\n \u00a0'.repeat(4))).toBe('password must not be only whitespace');
  });

  it('counts characters, not UTF-16 units or bytes (bcrypt used to cut at 72 bytes)', () => {
    expect(passwordProblem('😀'.repeat(12))).toBeUndefined();
    expect(passwordProblem('😀'.repeat(128))).toBeUndefined();
    expect(passwordProblem('😀'.repeat(6))).toBe('password must be at least 12 characters');
  });
});
