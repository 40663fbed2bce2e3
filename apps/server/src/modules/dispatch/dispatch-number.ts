/**
 * Dispatch numbers (`QW-5238`): the case numbers' alphabet without look-alikes, as long as a crew's case
 * number (`KMT-472`, so the crew's header shows it whole) but two letters and four digits, so a crew's
 * case can never take a dispatch's number before the dispatch is claimed and becomes a case with it.
 * 24² × 8⁴ ≈ 2.4 million, drawn at random: a number says nothing about how many were dispatched, and
 * guessing a live one, ten tries a minute, is hopeless.
 */
import { randomInt } from 'node:crypto';
import { CASE_NUMBER_DIGITS, CASE_NUMBER_LETTERS } from '../cases/case-number.js';

export const randomDispatchNumber = (): string => {
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${pick(CASE_NUMBER_LETTERS, 2)}-${pick(CASE_NUMBER_DIGITS, 4)}`;
};
