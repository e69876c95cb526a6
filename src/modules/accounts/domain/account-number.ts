/**
 * Account numbers operators read out and type in: "AC" + the account's id on 8 digits + a Luhn
 * check digit, so a mistyped digit is caught before a payment lands on the wrong account.
 */
export function accountNumberFor(accountId: number): string {
  const digits = String(accountId).padStart(8, '0');
  return `AC${digits}${luhnCheckDigit(digits)}`;
}

export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}
