/**
 * What the case tells the assistant (spec §2, issue 13): the complaint, the chosen tags and whether the
 * patient is a child. These words join the query at a lower weight; asked with an empty question inside
 * a case, they are the query.
 */
import { AGE_PERIOD, type Case, type Complaint } from '@inbound/contract';

export interface CaseContext {
  terms: string[];
  /** A readable form of the same, stored as the question when the crew asked about the case itself. */
  description: string;
}

/** Both libraries here treat under 15 as pediatric (San Diego "<15", Los Angeles "≤ 14 years"). */
const PEDIATRIC_BELOW_YEARS = 15;

export function describeCase(
  view: Pick<Case, 'complaint' | 'tags' | 'age' | 'agePeriod'>,
  complaints: ReadonlyMap<string, Complaint> | null,
): CaseContext {
  const complaint = view.complaint ? complaints?.get(view.complaint) : undefined;
  const tagNames = new Map(
    (complaint?.sections ?? []).flatMap((section) => section.tags.map((tag) => [tag.id, tag.name] as const)),
  );
  const tags = view.tags.map((tag) => tagNames.get(tag.id)).filter((name): name is string => name !== undefined);
  const child = view.age !== null && (view.agePeriod !== AGE_PERIOD.years || view.age < PEDIATRIC_BELOW_YEARS);
  const terms = [...(complaint ? [complaint.name] : []), ...tags, ...(child ? ['pediatric'] : [])];
  const age =
    view.age === null
      ? ''
      : ` age ${view.age} ${view.agePeriod === 1 ? 'weeks' : view.agePeriod === 2 ? 'months' : 'years'}`;
  const description = `Case: ${[complaint?.name ?? 'no complaint', ...tags].join(', ')}${age}`;
  return { terms, description };
}
