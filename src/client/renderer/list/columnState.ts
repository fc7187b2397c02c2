import { useSession } from '../../store/session.ts';
import { getStore, removeStore, setStore } from '../../store/storage.ts';

/** What we remember of a column: its place (array order), width (or flex share) and visibility. */
export interface SavedColumn {
  colId: string;
  width?: number;
  flex?: number;
  hide?: boolean;
}

function storeName(resource: string, scope: string): string {
  const user = useSession.getState().user;
  const userId = user?.user_id ?? user?.id ?? user?.account ?? 'anonymous';
  return `listColumns-${userId}-${resource}${scope ? `-${scope}` : ''}`;
}

export function loadColumnState(resource: string, scope = ''): SavedColumn[] | undefined {
  const saved = getStore<SavedColumn[]>(storeName(resource, scope));
  return Array.isArray(saved) ? saved : undefined;
}

/** Keeps the data columns only: index, selection and action columns are never saved. */
export function saveColumnState(resource: string, columns: SavedColumn[], scope = ''): void {
  setStore(
    storeName(resource, scope),
    columns.filter((column) => !column.colId.startsWith('__')),
  );
}

export function clearColumnState(resource: string, scope = ''): void {
  removeStore(storeName(resource, scope));
}
