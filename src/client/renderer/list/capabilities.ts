import { useMemo } from 'react';
import type { ResourceFile } from '../../../shared/resource.ts';
import { useCan } from '../common/permissions.ts';
import { dutyEndpoint, viewsOf, type ActionDef } from '../common/views.ts';
import { actionPermission } from './useActionRunner.tsx';
import { documentOf } from '../../../shared/document.ts';

export interface ListCapabilities {
  canAdd: boolean;
  canEdit: boolean;
  canView: boolean;
  canDelete: boolean;
  rowActions: ActionDef[];
  toolbarActions: ActionDef[];
}

/**
 * What the user may do on a list: the built-in buttons need their endpoint, the list block
 * not switching them off, and the button code `<permission>_add|_edit|_view|_delete`.
 */
export function useListCapabilities(resource: ResourceFile): ListCapabilities {
  const can = useCan();
  return useMemo(() => {
    const views = viewsOf(resource);
    const list = views.list ?? {};
    const code = (suffix: string) => (resource.permission ? `${resource.permission}_${suffix}` : undefined);
    const writable = !resource.table.insertOnly;
    const allowed = (action: ActionDef) => can(actionPermission(resource, action));
    const actions = (views.actions ?? []).filter(allowed);
    const doc = documentOf(resource);
    if (doc) {
      // A bill is written and moved through its actions in the document editor.
      const creates = doc.transitions.some((t) => t.save && t.from.includes('new') && can(t.perm));
      return {
        canAdd: list.add !== false && creates,
        canEdit: false,
        canView: list.view !== false && Boolean(dutyEndpoint(resource, 'detail')),
        canDelete: false,
        rowActions: actions.filter((a) => (a.placement ?? 'row') !== 'toolbar'),
        toolbarActions: actions.filter((a) => a.placement === 'toolbar' || a.placement === 'both'),
      };
    }
    return {
      canAdd: writable && list.add !== false && !resource.editOnly && Boolean(dutyEndpoint(resource, 'submit')) && can(code('add')),
      canEdit: writable && list.edit !== false && Boolean(dutyEndpoint(resource, 'submit')) && can(code('edit')),
      canView: list.view !== false && Boolean(dutyEndpoint(resource, 'detail')) && can(code('view')),
      canDelete: writable && list.remove !== false && Boolean(dutyEndpoint(resource, 'remove')) && can(code('delete')),
      rowActions: actions.filter((a) => (a.placement ?? 'row') !== 'toolbar'),
      toolbarActions: actions.filter((a) => a.placement === 'toolbar' || a.placement === 'both'),
    };
  }, [resource, can]);
}
