import type { FieldSpec } from '../form/layout.ts';
import type { Values } from '../form/types.ts';

/**
 * What every field editor receives, in the form (through the rjsf adapter) and in a lines
 * cell alike. Editors keep what is being typed in their own state and call `onCommit` once,
 * on blur or on a pick, so a keystroke repaints one input and nothing else.
 */
export interface EditorProps {
  id: string;
  value: unknown;
  spec: FieldSpec;
  disabled: boolean;
  invalid: boolean;
  placeholder?: string;
  /** The final value of the field (blur, select, pick). */
  onCommit(value: unknown): void;
  /** Text still being typed: kept for drafts and save, renders nothing. */
  onPending?(value: unknown): void;
  /** Sets sibling fields of the same record (a picker's fill, an area's names). */
  onPatch?(patch: Values): void;
  /** The record the field belongs to (a picker's `requires`, bank types). */
  getRecord?(): Values;
  /** Compact editors inside a table cell. */
  compact?: boolean;
}
