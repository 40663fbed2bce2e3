/**
 * A case change applied to the board as the console holds it (the TanStack Query cache of
 * `inboundBoard`): the hospital channel's `case.updated` carries the case's card after the change, so
 * exactly that card is replaced — no board read. An open card is replaced where it stands (the board
 * ranks open cases itself); a card that arrived moves to the top of the history; `card: null` (the case
 * no longer comes here) takes it off.
 */
import type { BoardCase, BoardResponse } from '@inbound/contract';

export function applyCaseCard(board: BoardResponse, caseId: string, card: BoardCase | null): BoardResponse {
  const arrived = card !== null && (card.arrivedAt !== null || card.closedAt !== null);
  return {
    ...board,
    open: placeCard(board.open, caseId, card !== null && !arrived ? card : null, 'end'),
    history: placeCard(board.history, caseId, arrived ? card : null, 'start'),
  };
}

function placeCard(
  cards: readonly BoardCase[],
  caseId: string,
  card: BoardCase | null,
  newAt: 'start' | 'end',
): BoardCase[] {
  const at = cards.findIndex((c) => c.id === caseId);
  if (card === null) return at < 0 ? [...cards] : cards.filter((c) => c.id !== caseId);
  if (at >= 0) return cards.map((c, i) => (i === at ? card : c));
  return newAt === 'start' ? [card, ...cards] : [...cards, card];
}
