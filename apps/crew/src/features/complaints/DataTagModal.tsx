import { useId, useState } from 'react';
import type { CaseTag, Tag, TagField } from '@inbound/contract';
import { Modal } from '../../ui/Modal';
import { addTagValues, removeTag } from '../case/mutations';
import { formatMessageTime } from '../messages/formatMessageTime';
import { useNow } from '../../ui/useNow';
import { TimeChoices } from './TimeChoices';
import { tagFieldsToSubmit, toDateTimeLocalValue, type TagFieldDraft } from './tagRules';
import { describeTagValue, formatFieldValue, isTimeTag } from './tagValues';

const INPUT_TYPE: Record<TagField['type'], string> = {
  number: 'number',
  text: 'text',
  date: 'date',
  datetime: 'datetime-local',
};

/**
 * A data-enabled tag (spec §2, §5): its fields (number, text, date, datetime), ADD disabled while they
 * are all empty, Cancel, and the history of the values saved before, with their times.
 *
 * A datetime starts empty, not prefilled with "now": the spec sends it only after the crew edits it, and
 * a field that showed a time while ADD stayed disabled read as broken (and a prefilled time looked like a
 * recorded one). "Now" fills the current time in one tap — the crew's choice, so it counts as an edit.
 */
export function DataTagModal({
  tag,
  complaintTags,
  caseTag,
  onClose,
}: {
  tag: Tag;
  complaintTags: readonly Tag[];
  caseTag: CaseTag | null;
  onClose: () => void;
}) {
  const [drafts, setDrafts] = useState<Record<string, TagFieldDraft>>(() =>
    Object.fromEntries(tag.data.map((field) => [field.key, { value: '', edited: false }])),
  );
  const toSubmit = tagFieldsToSubmit(tag.data, drafts);
  const history = caseTag?.values ?? [];
  const now = useNow();
  const saved = describeTagValue(tag, caseTag, now);
  const units = new Map(tag.data.map((field) => [field.key, field.unit]));

  return (
    <Modal
      title={tag.name}
      onClose={onClose}
      wide
      actions={
        <>
          {caseTag && (
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                void removeTag(tag.id);
                onClose();
              }}
            >
              Remove
            </button>
          )}
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button"
            disabled={toSubmit.length === 0}
            onClick={() => {
              void addTagValues(tag, complaintTags, toSubmit);
              onClose();
            }}
          >
            ADD
          </button>
        </>
      }
    >
      {isTimeTag(tag) && <TimeChoices tag={tag} complaintTags={complaintTags} caseTag={caseTag} onChosen={onClose} />}
      <div className="form">
        {tag.data.map((field) => (
          <TagFieldInput
            key={field.key}
            field={field}
            draft={drafts[field.key] ?? { value: '', edited: false }}
            saved={tag.data.length === 1 ? saved : null}
            onChange={(value) => setDrafts((current) => ({ ...current, [field.key]: { value, edited: true } }))}
            onNow={() =>
              setDrafts((current) => ({
                ...current,
                [field.key]: { value: toDateTimeLocalValue(new Date()), edited: true },
              }))
            }
          />
        ))}
      </div>
      {history.length > 0 && (
        <section className="tag-history" aria-label="Earlier values">
          <h3 className="tag-history__title">Earlier values</h3>
          <ol className="tag-history__list">
            {[...history].reverse().map((entry) => (
              <li key={entry.updatedAt} className="tag-history__item">
                <time dateTime={entry.updatedAt}>{formatMessageTime(new Date(entry.updatedAt), new Date())}</time>
                <span>
                  {entry.fields
                    .map((field) => `${field.name}: ${formatFieldValue(field, now, units.get(field.key))}`)
                    .join(', ')}
                </span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </Modal>
  );
}

function TagFieldInput({
  field,
  draft,
  saved,
  onChange,
  onNow,
}: {
  field: TagField;
  draft: TagFieldDraft;
  /** The value saved before, as read: the field starts empty, so it says what is on the case. */
  saved: string | null;
  onChange: (value: string) => void;
  onNow: () => void;
}) {
  const id = useId();
  const hintId = useId();
  const isDatetime = field.type === 'datetime';
  const input = (
    <input
      id={id}
      className="field__input"
      type={INPUT_TYPE[field.type]}
      inputMode={field.type === 'number' ? 'decimal' : undefined}
      autoComplete="off"
      value={draft.value}
      aria-describedby={isDatetime && draft.value === '' ? hintId : undefined}
      onChange={(event) => onChange(event.target.value)}
    />
  );
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {field.unit ? `${field.name} (${field.unit})` : field.name}
      </label>
      {isDatetime ? (
        <div className="field__row">
          {input}
          <button
            type="button"
            className="button button--secondary field__now"
            aria-label={`${field.name}: now`}
            onClick={onNow}
          >
            Now
          </button>
        </div>
      ) : (
        input
      )}
      {isDatetime && draft.value === '' && (
        <p id={hintId} className="field__hint">
          {saved ? `Saved: ${saved}. ` : 'Not set. '}Tap Now for the current time, or pick the date and time.
        </p>
      )}
    </div>
  );
}
