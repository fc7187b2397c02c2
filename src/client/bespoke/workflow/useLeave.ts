import { useCallback, useEffect, useState } from 'react';
import { useResource } from '../../renderer/common/useResource.ts';
import { flowApi, type LeaveWithFlow } from './flowApi.ts';

/** The leave resource (its form gives the read-only view) and the leave with its process. */
export function useLeave(businessId: string | undefined) {
  const { resource, error: schemaError } = useResource('leave');
  const [leave, setLeave] = useState<LeaveWithFlow>();
  const [failed, setFailed] = useState(false);
  const reload = useCallback(() => {
    if (!businessId) return;
    flowApi.leave(businessId).then(setLeave, () => setFailed(true));
  }, [businessId]);
  useEffect(reload, [reload]);
  return { resource, leave, failed: failed || Boolean(schemaError), reload };
}
