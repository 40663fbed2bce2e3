import type { BoardPriority } from '@inbound/contract';

/**
 * Priority said three ways, so no one depends on colour alone: the colour band, a shape (▲ 1, ◆ 2,
 * ● 3) and the words. A case without a complaint yet says so.
 */
const SHAPES: Record<BoardPriority, string> = { 1: '▲', 2: '◆', 3: '●' };

export function PriorityBadge({ priority }: { priority: BoardPriority | null }) {
  if (priority === null) {
    return <span className="priority-badge priority-none">No complaint yet</span>;
  }
  return (
    <span className={`priority-badge priority-${priority}`}>
      <span aria-hidden="true">{SHAPES[priority]}</span> Priority {priority}
    </span>
  );
}

export const priorityClass = (priority: BoardPriority | null | undefined) =>
  priority ? `priority-${priority}` : 'priority-none';
