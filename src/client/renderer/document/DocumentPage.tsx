/** A bill's menu page (录入): a new bill, and the bill it becomes once saved. */
import { useState } from 'react';
import type { ResourceFile } from '../../../shared/resource.ts';
import { DocumentEditor } from './DocumentEditor.tsx';

export default function DocumentPage({ resource }: { resource: ResourceFile }) {
  const [billId, setBillId] = useState<string>();
  return (
    <div style={{ height: '100%', overflow: 'auto' }}>
      <DocumentEditor resource={resource} billId={billId} onChanged={(bill) => setBillId(bill.isDeleted ? undefined : String(bill.id))} />
    </div>
  );
}
