/** The administration audit log, newest first, a page at a time (the server's cursor). */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AdminAuditQuery } from '@inbound/contract';
import { api } from '../../../lib/client';

export type AuditFilter = Pick<AdminAuditQuery, 'entityType' | 'entityId' | 'actorId'>;

export const auditKeys = {
  all: ['admin', 'audit'] as const,
  list: (filter: AuditFilter) => [...auditKeys.all, filter] as const,
};

export const AUDIT_PAGE_SIZE = 50;

export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filter),
    queryFn: ({ pageParam }) => {
      const query: AdminAuditQuery = { limit: AUDIT_PAGE_SIZE };
      if (filter.entityType) query.entityType = filter.entityType;
      if (filter.entityId) query.entityId = filter.entityId;
      if (filter.actorId) query.actorId = filter.actorId;
      if (pageParam) query.cursor = pageParam;
      return api('adminAuditLog', { query });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}
