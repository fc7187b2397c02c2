import { useMemo } from 'react';
import type { RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { ThemedForm, type FormContext } from './theme.tsx';
import { injectFormStyles } from './styles.ts';
import { useFormValues, FormStoreContext, type FormStore } from './store.ts';
import type { Values } from './types.ts';
import { useSettings } from '../../store/settings.ts';
import { useEntityValidator } from './entityValidators.ts';

/** English titles run about a third longer than the Chinese ones the widths are set for. */
const EN_LABEL_SCALE = 1.35;

/**
 * rjsf never validates here: fields are checked one by one on blur and all at once on save by
 * the FormStore, with the schema's own messages. This validator only satisfies rjsf's API.
 */
const passThrough: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [], validationError: undefined }),
};

/**
 * The rjsf schema of a form: only the laid-out fields, each rendered by our `erp` widget.
 * Types stay 'string' whatever the entity says — rjsf only routes values to widgets here,
 * so it must not coerce numbers, decimals (strings) or lists.
 */
function rjsfSchemaOf(store: FormStore): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = { 'ui:order': [...store.layout.order, '*'] };
  for (const name of store.layout.order) {
    properties[name] = { type: 'string' };
    uiSchema[name] = { 'ui:widget': 'erp' };
  }
  return { schema: { type: 'object', properties }, uiSchema };
}

interface Props {
  store: FormStore;
  /** Labels above the inputs (narrow drawers); beside them by default. */
  labelsOnTop?: boolean;
}

/** The fields of one open form, laid out from the form block; values live in the store. */
export function SchemaForm({ store, labelsOnTop }: Props) {
  injectFormStyles();
  const { schema, uiSchema } = useMemo(() => rjsfSchemaOf(store), [store]);
  const formContext: FormContext = useMemo(() => ({ store }), [store]);
  const formData = useFormValues(store);
  const language = useSettings((s) => s.language);
  const labelWidth = Math.round(store.layout.labelWidth * (language === 'en' ? EN_LABEL_SCALE : 1));
  // An editable form waits for its entity's compiled validator (a few KiB, usually fetched in idle
  // time already), so a field checked on blur reads as the server would answer.
  const checkable = useEntityValidator(store.mode === 'view' ? undefined : store.entity);
  if (!checkable) return <div className="erp-form erp-form-loading" aria-busy="true" />;
  return (
    <FormStoreContext.Provider value={store}>
      <div
        className={['erp-form', labelsOnTop && 'erp-label-top', store.mode === 'view' && 'erp-form-view'].filter(Boolean).join(' ')}
        style={{ ['--erp-label-width' as string]: `${labelWidth}px` }}
      >
        <ThemedForm
          tagName="div"
          schema={schema}
          uiSchema={uiSchema}
          formData={formData}
          formContext={formContext}
          validator={passThrough}
          noValidate
          liveValidate={false}
          showErrorList={false}
          onChange={(event) => store.replace(event.formData as Values)}
        >
          {/* Buttons live in the dialog footer. */}
          <></>
        </ThemedForm>
      </div>
    </FormStoreContext.Provider>
  );
}
