/**
 * The rjsf theme of the form dialog: our own light templates and one adapter widget that
 * renders the field's editor. No antd Form.Item wrappers, no rjsf error plumbing: errors and
 * linkage come from the FormStore by field, so a blur repaints one field.
 */
import { memo, useCallback, useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Tabs } from 'antd';
import { withTheme, type ThemeProps } from '@rjsf/core';
import type { FieldTemplateProps, ObjectFieldTemplateProps, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { useSyncExternalStore } from 'react';
import { editorFor } from '../widgets/registry.ts';
import { LinesEditor } from '../widgets/LinesEditor.tsx';
import { ReadonlyValue } from '../widgets/ReadonlyValue.tsx';
import { useActivation } from './activation.ts';
import { useFT } from './i18n.ts';
import type { FieldSpec, LayoutSection } from './layout.ts';
import { useFieldError, useFieldLinkage, type FormStore } from './store.ts';
import type { Values } from './types.ts';
import { useSettings } from '../../store/settings.ts';

export interface FormContext {
  store: FormStore;
}

const storeOf = (registry: { formContext?: unknown }) => (registry.formContext as FormContext).store;
const CHOICE = new Set([
  'select',
  'radio',
  'picker',
  'treePicker',
  'area',
  'date',
  'datetime',
  'daterange',
  'checkbox',
]);

/** "请选择X" for choices; a lookup on a text field (no x-ref: a company name search) is typed in. */
function isChoice(spec: FieldSpec): boolean {
  if (spec.widget === 'picker' && !spec.prop['x-ref']) return false;
  return CHOICE.has(spec.widget);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null || a === '') && (b === undefined || b === null || b === '')) return true;
  return false;
}

function titleOf(spec: FieldSpec, language: string): string {
  return language === 'en' && spec.titleEn ? spec.titleEn : spec.title;
}

/** The one rjsf widget: picks the field's editor and wires commit, pending text and checks to the store. */
function ErpWidget(props: WidgetProps) {
  const { name, id, value, onChange, registry, disabled } = props;
  const store = storeOf(registry);
  const spec = store.specOf(name)!;
  const linkage = useFieldLinkage(store, name);
  const error = useFieldError(store, name);
  const language = useSettings((s) => s.language);
  const t = useFT();
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  const onCommit = useCallback(
    (next: unknown) => {
      // The pending text clears when the committed value reaches the store (rjsf may defer it).
      if (sameValue(next, latest.current.value)) store.clearPending(name);
      else {
        store.setPending(name, next);
        latest.current.onChange(next);
      }
      store.validateField(name, next);
    },
    [store, name],
  );
  const onPending = useCallback((next: unknown) => store.setPending(name, next), [store, name]);
  const onPatch = useCallback(
    (patch: Values) => {
      store.patch(patch);
      store.validateField(name, patch[name]);
    },
    [store, name],
  );
  const getRecord = useCallback(() => store.snapshot(), [store]);

  if (spec.readonly && spec.widget !== 'lines')
    return <ReadonlyValue spec={spec} value={value} record={store.getValues()} />;
  const Editor = spec.widget === 'lines' ? LinesEditor : editorFor(spec.widget);
  const title = titleOf(spec, language);
  return (
    <Editor
      id={id}
      value={value}
      spec={spec}
      disabled={Boolean(disabled) || linkage.disabled || spec.readonly}
      invalid={Boolean(error)}
      placeholder={
        (language === 'en' ? spec.def.placeholderEn : spec.def.placeholder) ??
        t(isChoice(spec) ? 'form.placeholderSelect' : 'form.placeholderInput', { title })
      }
      onCommit={onCommit}
      onPending={onPending}
      onPatch={onPatch}
      getRecord={getRecord}
    />
  );
}

interface FieldBoxProps {
  store: FormStore;
  name: string;
  id: string;
  children: ReactNode;
}

/** Focuses the editor that replaced a placeholder the user tabbed or clicked into. */
function focusInside(box: HTMLElement | null): void {
  box?.querySelector<HTMLElement>('input:not([type=hidden]), textarea, [tabindex]:not([tabindex="-1"])')?.focus();
}

/** Enter in a field's own form (FieldBox) would submit it: nothing is sent, the editor commits. */
const keepOnPage = (event: FormEvent) => event.preventDefault();

/**
 * Label, control and error of one field on the 24-column grid; hidden by its visibleIf. Until
 * the field nears the visible area its editor is a light placeholder (see activation.ts).
 */
const FieldBox = memo(function FieldBox({ store, name, id, children }: FieldBoxProps) {
  const spec = store.specOf(name);
  const linkage = useFieldLinkage(store, name);
  const error = useFieldError(store, name);
  const language = useSettings((s) => s.language);
  const boxRef = useRef<HTMLDivElement>(null);
  const [active, activate] = useActivation(boxRef, store.isEager(name));
  const focusAfterMount = useRef(false);
  useEffect(() => {
    if (active && focusAfterMount.current) {
      focusAfterMount.current = false;
      focusInside(boxRef.current);
    }
  }, [active]);
  if (!spec) return null;
  const required = !spec.readonly && (spec.required || linkage.required);
  const title = titleOf(spec, language);
  const Control = spec.widget === 'lines' ? 'div' : 'form';
  return (
    <div
      ref={boxRef}
      // A lines table takes the whole row: its tab or group already names it.
      className={spec.widget === 'lines' ? 'erp-field erp-field-block' : 'erp-field'}
      style={{ ['--erp-span' as string]: spec.span }}
      data-span={spec.span}
      hidden={linkage.hidden}
      data-field={name}
      data-field-index={store.positionOf(name)}
    >
      <label className="erp-label" htmlFor={id} title={title}>
        {required && <span className="erp-required">*</span>}
        {title}
      </label>
      {/* The control is a form of its own because Chrome's autofill reads, on every keystroke, the
          whole form the field belongs to, and without a form element that is every formless
          field of the page: about 5 ms a key in a 100-field dialog, sometimes before the key's
          frame (issue 17). A lines table holds fields of its own, so it stays a plain box. */}
      <Control className="erp-control" {...(Control === 'form' ? { noValidate: true, onSubmit: keepOnPage } : {})}>
        {active ? (
          children
        ) : (
          <div
            className={`erp-placeholder erp-placeholder-${spec.widget}`}
            // A list holds minItems inputs and its add button: the placeholder keeps that height.
            style={spec.widget === 'textList' ? { height: Math.max(1, spec.prop.minItems ?? 1) * 38 + 24 } : undefined}
            tabIndex={0}
            onFocus={() => {
              focusAfterMount.current = true;
              activate();
            }}
          />
        )}
        {error && (
          <div className="erp-field-error" role="alert">
            {error}
          </div>
        )}
      </Control>
    </div>
  );
});

function FieldTemplate(props: FieldTemplateProps) {
  const { children, registry, fieldPathId, id } = props;
  if (!fieldPathId.path.length) return <>{children}</>;
  return (
    <FieldBox store={storeOf(registry)} name={String(fieldPathId.path[0])} id={id}>
      {children}
    </FieldBox>
  );
}

function Section({ section, contents }: { section: LayoutSection; contents: Map<string, ReactNode> }) {
  const language = useSettings((s) => s.language);
  return (
    <section>
      {section.title && (
        <div className="erp-section-title">
          {language === 'en' && section.titleEn ? section.titleEn : section.title}
        </div>
      )}
      <div className="erp-grid">{section.fields.map((name) => contents.get(name))}</div>
    </section>
  );
}

function useActiveTab(store: FormStore): string {
  const subscribe = useCallback((listener: () => void) => store.subscribe('tab', listener), [store]);
  return useSyncExternalStore(subscribe, () => store.activeTab);
}

/** Tabs and groups of the form block; panes render when first opened and stay mounted. */
function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, registry } = props;
  const store = storeOf(registry);
  const activeTab = useActiveTab(store);
  const language = useSettings((s) => s.language);
  const contents = new Map(properties.map((property) => [property.name, property.content]));
  const { layout } = store;
  if (!layout.tabs) {
    return (
      <>
        {layout.sections.map((section, index) => (
          <Section key={index} section={section} contents={contents} />
        ))}
      </>
    );
  }
  return (
    <Tabs
      activeKey={activeTab}
      onChange={(key) => store.setActiveTab(key)}
      items={layout.tabs.map((tab) => ({
        key: tab.key,
        label: language === 'en' && tab.titleEn ? tab.titleEn : tab.title,
        children: tab.sections.map((section, index) => <Section key={index} section={section} contents={contents} />),
      }))}
    />
  );
}

const Nothing = () => null;

const widgets: RegistryWidgetsType = { erp: ErpWidget };

const theme: ThemeProps = {
  widgets,
  templates: {
    FieldTemplate,
    ObjectFieldTemplate,
    ErrorListTemplate: Nothing,
    FieldErrorTemplate: Nothing,
    FieldHelpTemplate: Nothing,
    DescriptionFieldTemplate: Nothing,
    TitleFieldTemplate: Nothing,
    ButtonTemplates: { SubmitButton: Nothing },
  },
};

/** The rjsf Form bound to our templates and widget. */
export const ThemedForm = withTheme(theme);
