/** The query keys of the hospitals' status lists (one per hospital). */
export const hospitalStatusKeys = { one: (id: string) => ['hospitalStatuses', id] as const };
