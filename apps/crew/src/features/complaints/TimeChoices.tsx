import type { CaseTag, Tag } from '@inbound/contract';
import { addTagValues } from '../case/mutations';
import { TIME_CHOICES, timeChoiceValue } from './tagValues';

/**
 * One-tap times for a time tag (issue 16, item 1): Now, −15 min, −30 min, −1 h, Unknown — each saves at
 * once; the tag's own button opens the dialog for any other time (the device's date-time wheel).
 */
export function TimeChoices({
  tag,
  complaintTags,
  caseTag,
  onChosen,
}: {
  tag: Tag;
  complaintTags: readonly Tag[];
  caseTag: CaseTag | null;
  onChosen?: () => void;
}) {
  const field = tag.data[0]!;
  const current = caseTag?.values.at(-1)?.fields[0]?.value;
  return (
    <div className="time-choices" role="group" aria-label={`${tag.name} times`}>
      {TIME_CHOICES.map((choice) => (
        <button
          key={choice.label}
          type="button"
          className={choice.minutesAgo === null && current === '' ? 'time-choice time-choice--on' : 'time-choice'}
          onClick={() => {
            void addTagValues(tag, complaintTags, [timeChoiceValue(field, choice, new Date())]);
            onChosen?.();
          }}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
