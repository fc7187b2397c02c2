import type { Row } from '../common/params.ts';
import type { RendererTranslate } from '../common/i18n.ts';
import type { RecordDialogState } from '../form/RecordDialog.tsx';
import type { ListCapabilities } from './capabilities.ts';
import type { RowButton } from './RowActions.tsx';
import { isActionVisible, type useActionRunner } from './useActionRunner.tsx';

interface RowButtonDeps {
  caps: ListCapabilities;
  t: RendererTranslate;
  label: (zh: string, en?: string) => string;
  runner: ReturnType<typeof useActionRunner>;
  openDialog(state: RecordDialogState): void;
}

/** 查看 / 编辑 / 删除 and the schema's row actions visible for this row: the same on list and tree pages. */
export function recordRowButtons(row: Row, deps: RowButtonDeps): RowButton[] {
  const { caps, t, label, runner, openDialog } = deps;
  const id = String(row.id ?? '');
  const buttons: RowButton[] = [];
  if (caps.canView) buttons.push({ key: '__view', label: t('list.view'), onClick: () => openDialog({ mode: 'view', id }) });
  if (caps.canEdit) buttons.push({ key: '__edit', label: t('list.edit'), onClick: () => openDialog({ mode: 'edit', id }) });
  if (caps.canDelete) {
    buttons.push({ key: '__delete', label: t('list.delete'), danger: true, onClick: () => runner.remove([row], false) });
  }
  for (const action of caps.rowActions) {
    if (!isActionVisible(action, row)) continue;
    buttons.push({
      key: action.key,
      label: label(action.label, action.labelEn),
      danger: action.danger,
      onClick: () => runner.run(action, [row]),
    });
  }
  return buttons;
}

/** Every label the actions column may show, to size it once for all rows. */
export function recordActionLabels(deps: Pick<RowButtonDeps, 'caps' | 't' | 'label'>): string[] {
  const { caps, t, label } = deps;
  return [
    ...(caps.canView ? [t('list.view')] : []),
    ...(caps.canEdit ? [t('list.edit')] : []),
    ...(caps.canDelete ? [t('list.delete')] : []),
    ...caps.rowActions.map((a) => label(a.label, a.labelEn)),
  ];
}
