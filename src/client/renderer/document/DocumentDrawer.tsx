/** A bill opened from its history list: the same editor, in a wide drawer. */
import { Drawer } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import { DocumentEditor } from './DocumentEditor.tsx';

interface Props {
  resource: ResourceFile;
  id?: string;
  onClose(changed: boolean): void;
}

export default function DocumentDrawer({ resource, id, onClose }: Props) {
  let changed = false;
  return (
    <Drawer open size="92%" title={null} closable onClose={() => onClose(changed)} destroyOnHidden styles={{ body: { padding: 8 } }}>
      <DocumentEditor resource={resource} billId={id} onChanged={() => (changed = true)} />
    </Drawer>
  );
}
