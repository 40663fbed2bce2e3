/**
 * Performance marks for the render bench (bench/console-board-render.ts) and for anyone profiling the
 * board in DevTools: a `case.updated` notice arrived, a board read started, its data arrived (parsed),
 * and the board committed it to the DOM. Marks carry no data, cost about a microsecond, and the bench clears them.
 */
export const BOARD_MARKS = {
  notice: 'inbound-board:notice',
  read: 'inbound-board:read',
  data: 'inbound-board:data',
  commit: 'inbound-board:commit',
} as const;

function mark(name: string) {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
}

export const markBoardNotice = () => mark(BOARD_MARKS.notice);
export const markBoardRead = () => mark(BOARD_MARKS.read);
export const markBoardData = () => mark(BOARD_MARKS.data);
export const markBoardCommit = () => mark(BOARD_MARKS.commit);
