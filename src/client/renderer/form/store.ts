/**
 * State of one open form, outside React so that typing re-renders nothing but the field typed
 * in: committed values (what rjsf renders), pending text (typed, not yet committed — read by
 * drafts and save), field errors and linkage (hidden / disabled / required). Fields subscribe
 * to their own keys only, so a blur check repaints one field, not the form.
 */
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { evaluate, type Expr } from '../../../shared/expr.ts';
import type { EntitySchema } from '../../../shared/resource.ts';
import { eagerFieldCount } from './activation.ts';
import type { FieldSpec, FormLayout } from './layout.ts';
import type { FormMode, Values } from './types.ts';
import { checkField, isRequired } from './validation.ts';

export interface FieldLinkage {
  hidden: boolean;
  disabled: boolean;
  required: boolean;
}

const FREE: FieldLinkage = { hidden: false, disabled: false, required: false };
type Listener = () => void;
/** A check a composite widget (lines) adds for its own cells; returns path → message. */
export type ExtraCheck = (values: Values) => Record<string, string>;

function truthy(expr: unknown, values: Values): boolean {
  try {
    return Boolean(evaluate(expr as Expr, values));
  } catch {
    return false;
  }
}

export class FormStore {
  private values: Values;
  private readonly pending = new Map<string, unknown>();
  private errors = new Map<string, string>();
  private readonly linkage = new Map<string, FieldLinkage>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly extraChecks = new Map<string, ExtraCheck>();
  /** The open tab of a tabbed form (a failed check opens the tab of the first error). */
  activeTab = '0';

  constructor(
    readonly entity: EntitySchema,
    readonly layout: FormLayout,
    readonly mode: FormMode,
    initial: Values,
  ) {
    this.values = initial;
    this.computeLinkage(false);
  }

  // ── subscriptions ──────────────────────────────────────────────────────────
  subscribe(key: string, listener: Listener): () => void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  private notify(key: string): void {
    this.listeners.get(key)?.forEach((listener) => listener());
  }

  setActiveTab(key: string): void {
    if (key === this.activeTab) return;
    this.activeTab = key;
    this.notify('tab');
  }

  /** Opens the tab holding a field (or a line cell `<field>.<i>.<cell>`). */
  revealField(path: string): void {
    const name = path.split('.')[0];
    const tab = this.layout.tabs?.find((candidate) =>
      candidate.sections.some((section) => section.fields.includes(name)),
    );
    if (tab) this.setActiveTab(tab.key);
  }

  // ── values ─────────────────────────────────────────────────────────────────
  getValues = (): Values => this.values;

  /** Committed values plus text still being typed: what a draft or a save must keep. */
  snapshot(): Values {
    if (!this.pending.size) return this.values;
    return { ...this.values, ...Object.fromEntries(this.pending) };
  }

  /** Typed but not committed; costs no render. */
  setPending(name: string, value: unknown): void {
    this.pending.set(name, value);
  }

  clearPending(name: string): void {
    this.pending.delete(name);
  }

  /** New committed values (rjsf's onChange, or a patch); linkage follows. */
  replace(next: Values): void {
    if (next === this.values) return;
    this.values = next;
    // Typed text is pending until the committed value arrives.
    for (const [name, value] of this.pending) if (Object.is(next[name], value)) this.pending.delete(name);
    this.computeLinkage(true);
    this.notify('values');
  }

  /** Sets several fields at once (a picker's `fill`, a restored draft). */
  patch(patch: Values): void {
    for (const name of Object.keys(patch)) this.pending.delete(name);
    this.replace({ ...this.values, ...patch });
  }

  // ── linkage ────────────────────────────────────────────────────────────────
  private computeLinkage(announce: boolean): void {
    for (const spec of this.layout.specs.values()) {
      const { def } = spec;
      const dynamic =
        def.visibleIf !== undefined || def.disabledIf !== undefined || spec.prop['x-requiredIf'] !== undefined;
      if (!dynamic && this.linkage.has(spec.name)) continue;
      const next: FieldLinkage = {
        hidden: def.visibleIf !== undefined && !truthy(def.visibleIf, this.values),
        disabled: def.disabledIf !== undefined && truthy(def.disabledIf, this.values),
        required: isRequired(spec, this.values),
      };
      const previous = this.linkage.get(spec.name);
      if (
        previous &&
        previous.hidden === next.hidden &&
        previous.disabled === next.disabled &&
        previous.required === next.required
      ) {
        continue;
      }
      this.linkage.set(spec.name, next);
      if (announce) this.notify(`link:${spec.name}`);
    }
  }

  linkageOf = (name: string): FieldLinkage => this.linkage.get(name) ?? FREE;

  // ── errors ─────────────────────────────────────────────────────────────────
  errorOf = (path: string): string | undefined => this.errors.get(path);

  setError(path: string, message: string | undefined): void {
    if (this.errors.get(path) === message) return;
    if (message) this.errors.set(path, message);
    else this.errors.delete(path);
    this.notify(`error:${path}`);
  }

  /** Replaces every error (a full check, or the server's fieldErrors). */
  setErrors(errors: Record<string, string>): void {
    const old = this.errors;
    this.errors = new Map(Object.entries(errors));
    for (const path of new Set([...old.keys(), ...this.errors.keys()])) {
      if (old.get(path) !== this.errors.get(path)) this.notify(`error:${path}`);
    }
    this.notify('errors');
  }

  errorPaths(): string[] {
    return [...this.errors.keys()];
  }

  // ── checks ─────────────────────────────────────────────────────────────────
  /** Editors that mount with the form: the first screenful, in layout order. */
  isEager(name: string): boolean {
    // Read-only values are plain text: nothing to defer.
    if (this.mode === 'view') return true;
    const index = this.layout.order.indexOf(name);
    return index >= 0 && index < eagerFieldCount();
  }

  /** 1-based place of a field in layout order (`data-field-index`, for tests and bench drivers). */
  positionOf(name: string): number {
    return this.layout.order.indexOf(name) + 1;
  }

  specOf(name: string): FieldSpec | undefined {
    return this.layout.specs.get(name);
  }

  /** Blur check of one field with the value just committed. */
  validateField(name: string, value: unknown): string | undefined {
    const spec = this.layout.specs.get(name);
    if (!spec || spec.readonly || this.linkageOf(name).hidden) return undefined;
    const values = { ...this.snapshot(), [name]: value };
    const message = checkField(this.entity, spec, value, values);
    this.setError(name, message);
    return message;
  }

  registerCheck(name: string, check: ExtraCheck): () => void {
    this.extraChecks.set(name, check);
    return () => {
      if (this.extraChecks.get(name) === check) this.extraChecks.delete(name);
    };
  }

  /** Checks every visible, editable field (before saving); returns the error paths in layout order. */
  validateAll(): string[] {
    const values = this.snapshot();
    const errors: Record<string, string> = {};
    for (const name of this.layout.order) {
      const spec = this.layout.specs.get(name)!;
      if (spec.readonly || this.linkageOf(name).hidden) continue;
      const message = checkField(this.entity, spec, values[name], values);
      if (message) errors[name] = message;
      const extra = this.extraChecks.get(name);
      if (extra) Object.assign(errors, extra(values));
    }
    this.setErrors(errors);
    return Object.keys(errors);
  }
}

/** The store of the form a widget lives in (pickers read `requires` fields from it). */
export const FormStoreContext = createContext<FormStore | undefined>(undefined);

export function useFormStore(): FormStore | undefined {
  return useContext(FormStoreContext);
}

export function useFieldError(store: FormStore | undefined, path: string): string | undefined {
  const subscribe = useCallback(
    (listener: Listener) => store?.subscribe(`error:${path}`, listener) ?? (() => {}),
    [store, path],
  );
  return useSyncExternalStore(subscribe, () => store?.errorOf(path));
}

export function useFieldLinkage(store: FormStore | undefined, name: string): FieldLinkage {
  const subscribe = useCallback(
    (listener: Listener) => store?.subscribe(`link:${name}`, listener) ?? (() => {}),
    [store, name],
  );
  return useSyncExternalStore(subscribe, () => store?.linkageOf(name) ?? FREE);
}

export function useFormValues(store: FormStore): Values {
  const subscribe = useCallback((listener: Listener) => store.subscribe('values', listener), [store]);
  return useSyncExternalStore(subscribe, store.getValues);
}
