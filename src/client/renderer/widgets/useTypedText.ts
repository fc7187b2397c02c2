import { useCallback, useLayoutEffect, useRef } from 'react';
import type { EditorProps } from './types.ts';
import { typeQuietly } from './quietTyping.ts';

/** A field value as the text an editor shows (nothing: empty). */
export const asText = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/**
 * What the plain text editors (PlainTextInput, PlainTextArea) share: the typed text lives in the
 * element until it is committed; typing reaches the editor outside React (quietTyping.ts) and
 * marks the field pending; a value from outside (a fill, a restored draft, a commit) replaces what
 * the element shows. `onText` hears every text the element shows (typed or set).
 */
export function useTypedText<E extends HTMLInputElement | HTMLTextAreaElement>(props: EditorProps, onText?: (text: string, element: E) => void) {
  const { id, spec, disabled, invalid, placeholder, onCommit } = props;
  const committed = asText(props.value);
  const ref = useRef<E>(null);
  const latest = useRef({ onPending: props.onPending, onText });
  latest.current = { onPending: props.onPending, onText };

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    return typeQuietly(element, (text) => {
      latest.current.onText?.(text, element);
      latest.current.onPending?.(text);
    });
  }, []);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (element.value !== committed) element.value = committed;
    latest.current.onText?.(element.value, element);
  }, [committed]);

  const commit = useCallback(() => onCommit(ref.current?.value ?? ''), [onCommit]);
  const fieldProps = {
    id,
    defaultValue: committed,
    disabled,
    placeholder,
    maxLength: typeof spec.prop.maxLength === 'number' ? spec.prop.maxLength : undefined,
    'aria-invalid': invalid || undefined,
    onBlur: commit,
  };
  return { ref, commit, fieldProps };
}
