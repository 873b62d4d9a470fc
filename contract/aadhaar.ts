// Verhoeff check digit, as UIDAI uses for Aadhaar numbers (DESIGN.md §3).
const multiplication = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const permutation = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const inverse = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

function checksum(digits: string): number {
  let c = 0;
  const reversed = digits.split('').reverse();
  reversed.forEach((d, i) => {
    c = multiplication[c]![permutation[i % 8]![Number(d)]!]!;
  });
  return c;
}

export function verhoeffValid(digits: string): boolean {
  return /^\d+$/.test(digits) && checksum(digits) === 0;
}

/** The digit to append to `digits` so the whole passes the Verhoeff check (used by test data builders). */
export function verhoeffDigit(digits: string): number {
  return inverse[checksum(`${digits}0`)]!;
}

export function maskAadhaar(last4: string): string {
  return `XXXX XXXX ${last4}`;
}
