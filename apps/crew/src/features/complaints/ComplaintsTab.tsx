import { memo, useCallback, useMemo, useState } from 'react';
import { DATA_ENABLED_CATEGORY, messages, type Complaint, type ComplaintSet, type Tag } from '@inbound/contract';
import type { StoredCase } from '../../lib/session';
import { Spinner } from '../../ui/Spinner';
import { chooseComplaint, tapTag } from '../case/mutations';
import { DataTagModal } from './DataTagModal';
import { useComplaintSet } from './queries';
import { complaintTags, tagBackground, textColorFor } from './tagRules';

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
  return (
    <ComplaintList
      set={set}
      chosenId={caseData.complaint}
      onChoose={(id) => {
        void chooseComplaint(id);
        setShowList(false);
      }}
    />
  );
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
  const selected = new Set(caseData.tags.map((tag) => tag.id));
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
          <h3 className="tag-section__title">{section.name}</h3>
          <div className="tag-section__tags">
            {section.tags.map((tag) => {
              const isSelected = selected.has(tag.id);
              return (
                <TagButton
                  key={tag.id}
                  tag={tag}
                  selected={isSelected}
                  background={tagBackground(complaint, isSelected)}
                  onTap={onTap}
                />
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
  background,
  onTap,
}: {
  tag: Tag;
  selected: boolean;
  background: string;
  onTap: (tag: Tag) => void;
}) {
  return (
    <button
      type="button"
      className="tag"
      style={{ backgroundColor: background, color: textColorFor(background) }}
      aria-pressed={selected}
      aria-haspopup={tag.category === DATA_ENABLED_CATEGORY ? 'dialog' : undefined}
      onClick={() => onTap(tag)}
    >
      {tag.name}
    </button>
  );
});
