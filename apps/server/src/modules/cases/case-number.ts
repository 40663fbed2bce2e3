/**
 * Case numbers are said over a radio and typed from a broadcast, so they are short and hard to
 * mishear: three letters and three digits, `KMT-472`, from an alphabet without the look-alikes
 * (no I, O; no 0, 1). 24³ × 8³ ≈ 7 million numbers, drawn at random (not in sequence, so a number
 * says nothing about how many cases an agency has). Uniqueness is the database's unique constraint:
 * a taken number is drawn again (see the case service).
 */
import { randomInt } from 'node:crypto';

export const CASE_NUMBER_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CASE_NUMBER_DIGITS = '23456789';
export const CASE_NUMBER_PATTERN = /^[A-HJ-NP-Z]{3}-[2-9]{3}$/;

export type CaseNumberSource = () => string;

export const randomCaseNumber: CaseNumberSource = () => {
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${pick(CASE_NUMBER_LETTERS, 3)}-${pick(CASE_NUMBER_DIGITS, 3)}`;
};
