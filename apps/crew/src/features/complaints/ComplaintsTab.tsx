import { memo, useCallback, useMemo, useState } from 'react';
import { DATA_ENABLED_CATEGORY, messages, type Complaint, type ComplaintSet, type Tag } from '@inbound/contract';
import type { StoredCase } from '../../lib/session';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Spinner } from '../../ui/Spinner';
import { useNow } from '../../ui/useNow';
import { changeComplaint, chooseComplaint, tapTag } from '../case/mutations';
import { DataTagModal } from './DataTagModal';
import { useComplaintSet } from './queries';
import { complaintTags, tagBackground, textColorFor } from './tagRules';
import { describeTagValue, isTimeTag } from './tagValues';
import { TimeChoices } from './TimeChoices';

/**
 * The complaints tab (spec §2): the colour-coded list with the Priority 1/2/3 legend; once one is
 * chosen, its header (tap to go back to the list) and its tag sections.
 */
export function ComplaintsTab({ caseData }: { caseData: StoredCase }) {
  const query = useComplaintSet(caseData.complaintSet);
  const [showList, setShowList] = useState(false);
  const set = query.data ?? null;
  if (!set) {
    if (query.isPending || query.isFetching) return <Spinner label="Loading complaints" />;
    return <p className="empty-state">{messages.complaintSetUnavailable}</p>;
  }
  const chosen = set.complaints.find((complaint) => complaint.id === caseData.complaint) ?? null;
  if (chosen && !showList) {
    return <ComplaintDetail complaint={chosen} caseData={caseData} onBack={() => setShowList(true)} />;
  }
  return <ComplaintChange set={set} caseData={caseData} chosen={chosen} onChosen={() => setShowList(false)} />;
}

/**
 * The list, and the rule for a change of complaint (issue 16, item 5): tags belong to their complaint, so
 * a change that would leave the old complaint's tags behind asks first and then removes them — the board
 * and the crew's screen then show the same tags. A change with no tags selected needs no question.
 */
function ComplaintChange({
  set,
  caseData,
  chosen,
  onChosen,
}: {
  set: ComplaintSet;
  caseData: StoredCase;
  chosen: Complaint | null;
  onChosen: () => void;
}) {
  const [pending, setPending] = useState<Complaint | null>(null);
  const tagCount = caseData.tags.length;
  return (
    <>
      <ComplaintList
        set={set}
        chosenId={caseData.complaint}
        onChoose={(id) => {
          const next = set.complaints.find((complaint) => complaint.id === id);
          if (!next) return;
          if (id !== caseData.complaint && tagCount > 0) {
            setPending(next);
            return;
          }
          void chooseComplaint(id);
          onChosen();
        }}
      />
      {pending && (
        <ConfirmDialog
          title="Change complaint"
          message={changeComplaintMessage(chosen?.name ?? 'the complaint', pending.name, tagCount)}
          confirmLabel={`Change to ${pending.name}`}
          onCancel={() => setPending(null)}
          onConfirm={() => {
            void changeComplaint(pending.id);
            setPending(null);
            onChosen();
          }}
        />
      )}
    </>
  );
}

function changeComplaintMessage(from: string, to: string, tagCount: number): string {
  const tags = tagCount === 1 ? 'its 1 tag' : `its ${tagCount} tags`;
  return `Change the complaint from ${from} to ${to}? ${from} and ${tags} will be removed from the case.`;
}

function colourStyle(color: string) {
  return { backgroundColor: color, color: textColorFor(color) };
}

const PRIORITIES = [1, 2, 3] as const;

function ComplaintList({
  set,
  chosenId,
  onChoose,
}: {
  set: ComplaintSet;
  chosenId: string | null;
  onChoose: (id: string) => void;
}) {
  return (
    <div className="complaints">
      <ul className="priority-legend" aria-label="Legend">
        {PRIORITIES.map((priority) => {
          // Every colour the set uses for this priority: one sample would misstate a set that shades them.
          const colours = [
            ...new Set(set.complaints.filter((c) => c.priority === priority).map((c) => c.color.toUpperCase())),
          ];
          return (
            <li key={priority} className="priority-legend__item">
              {colours.map((colour) => (
                <span key={colour} className="priority-legend__swatch" style={{ backgroundColor: colour }} />
              ))}
              Priority {priority}
            </li>
          );
        })}
      </ul>
      <ul className="complaint-list" aria-label="Complaints">
        {set.complaints.map((complaint) => (
          <li key={complaint.id}>
            <button
              type="button"
              className="complaint-option"
              style={colourStyle(complaint.color)}
              aria-pressed={complaint.id === chosenId}
              onClick={() => onChoose(complaint.id)}
            >
              <span className="complaint-option__name">{complaint.name}</span>{' '}
              <span className="complaint-option__priority">Priority {complaint.priority}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ComplaintDetail({
  complaint,
  caseData,
  onBack,
}: {
  complaint: Complaint;
  caseData: StoredCase;
  onBack: () => void;
}) {
  const [dataTag, setDataTag] = useState<Tag | null>(null);
  const allTags = useMemo(() => complaintTags(complaint), [complaint]);
  // The complaint's first time tag (a stroke's last known well) offers its times on the screen itself.
  const onsetTagId = useMemo(() => allTags.find(isTimeTag)?.id ?? null, [allTags]);
  const now = useNow();
  const selected = new Set(caseData.tags.map((tag) => tag.id));
  const caseTags = new Map(caseData.tags.map((tag) => [tag.id, tag]));
  // Stable, so that a tap re-renders only the buttons whose state changed (TagButton is memoised), not
  // every tag of the complaint: the tap is answered sooner on a slow phone.
  const onTap = useCallback(
    (tag: Tag) => (tag.category === DATA_ENABLED_CATEGORY ? setDataTag(tag) : void tapTag(tag, allTags)),
    [allTags],
  );
  return (
    <div className="complaint-detail">
      <button
        type="button"
        className="complaint-header"
        style={colourStyle(complaint.color)}
        onClick={onBack}
        aria-describedby="complaint-header-hint"
      >
        <span className="complaint-option__name">{complaint.name}</span>{' '}
        <span className="complaint-option__priority">Priority {complaint.priority}</span>
      </button>
      <span id="complaint-header-hint" className="visually-hidden">
        Shows the complaint list
      </span>
      {complaint.sections.map((section) => (
        <section key={section.id} className="tag-section" aria-label={section.name}>
          <h2 className="tag-section__title">{section.name}</h2>
          <div className="tag-section__tags">
            {section.tags.map((tag) => {
              const isSelected = selected.has(tag.id);
              const button = (
                <TagButton
                  key={tag.id}
                  tag={tag}
                  selected={isSelected}
                  value={isSelected ? describeTagValue(tag, caseTags.get(tag.id), now) : null}
                  background={tagBackground(complaint, isSelected)}
                  onTap={onTap}
                />
              );
              if (tag.id !== onsetTagId) return button;
              return (
                <div key={tag.id} className="time-tag">
                  {button}
                  <TimeChoices tag={tag} complaintTags={allTags} caseTag={caseTags.get(tag.id) ?? null} />
                </div>
              );
            })}
          </div>
        </section>
      ))}
      {dataTag && (
        <DataTagModal
          tag={dataTag}
          complaintTags={allTags}
          caseTag={caseData.tags.find((tag) => tag.id === dataTag.id) ?? null}
          onClose={() => setDataTag(null)}
        />
      )}
    </div>
  );
}

const TagButton = memo(function TagButton({
  tag,
  selected,
  value,
  background,
  onTap,
}: {
  tag: Tag;
  selected: boolean;
  /** The saved value of a data-enabled tag, as read ("13:05, 42 min ago"). */
  value: string | null;
  background: string;
  onTap: (tag: Tag) => void;
}) {
  return (
    <button
      type="button"
      className={value ? 'tag tag--with-value' : 'tag'}
      style={{ backgroundColor: background, color: textColorFor(background) }}
      aria-pressed={selected}
      aria-haspopup={tag.category === DATA_ENABLED_CATEGORY ? 'dialog' : undefined}
      onClick={() => onTap(tag)}
    >
      {tag.name}
      {value && (
        <>
          {' '}
          <span className="tag__value">{value}</span>
        </>
      )}
    </button>
  );
});
