import { useEffect } from 'react';
import type { FormInstance } from 'antd';
import { registerDraft, takeDraft } from '../../../store/drafts.ts';

/**
 * Keeps a form's typed values through a forced sign-out: registers the form as a draft source
 * and, when a saved draft exists, puts it back into the form once.
 */
export function useFormDraft<T extends object>(key: string, form: FormInstance<T>, ready = true): void {
  useEffect(() => {
    if (!ready) return undefined;
    const draft = takeDraft<Partial<T>>(key);
    if (draft) form.setFieldsValue(draft as Parameters<FormInstance<T>['setFieldsValue']>[0]);
    return registerDraft(key, () => form.getFieldsValue());
  }, [key, form, ready]);
}
