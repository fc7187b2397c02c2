import { useCallback, useLayoutEffect, useRef } from 'react';
import type { EditorProps } from './types.ts';
import { typeQuietly } from './quietTyping.ts';

/** A field value as the text an editor shows (nothing: empty). */
export const asText = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/**
 * What the plain text editors (PlainTextInput, PlainTextArea) share: the typed text lives in the
 * element until it is committed; typing reaches the editor outside React (quietTyping.ts) and
 * marks the field pending; a value from outside (a fill, a restored draft, a commit) replaces what
 * the element shows. `onText` hears every text the element shows (typed or set); `shown` is
 * called after setting the element's text by hand (清除).
 */
export function useTypedText<E extends HTMLInputElement | HTMLTextAreaElement>(props: EditorProps, onText?: (text: string, element: E) => void) {
  const { id, spec, disabled, invalid, placeholder, onCommit } = props;
  const committed = asText(props.value);
  const ref = useRef<E>(null);
  const latest = useRef({ onPending: props.onPending, onText, placeholder });
  latest.current = { onPending: props.onPending, onText, placeholder };
  /** What follows the text the element shows: the placeholder, and `onText`'s marks. */
  const shown = useCallback((element: E) => {
    showPlaceholder(element, element.value, latest.current.placeholder);
    latest.current.onText?.(element.value, element);
  }, []);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    return typeQuietly(element, (text) => {
      shown(element);
      latest.current.onPending?.(text);
    });
  }, [shown]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (element.value !== committed) element.value = committed;
    shown(element);
  }, [committed, placeholder, shown]);

  const commit = useCallback(() => onCommit(ref.current?.value ?? ''), [onCommit]);
  const fieldProps = {
    id,
    defaultValue: committed,
    disabled,
    maxLength: typeof spec.prop.maxLength === 'number' ? spec.prop.maxLength : undefined,
    'aria-invalid': invalid || undefined,
    onBlur: commit,
  };
  return { ref, commit, shown, fieldProps };
}

/**
 * The placeholder attribute only while the field is empty (where it shows). Chrome's input sets
 * its placeholder's visibility as an inline style on every change of the text, so each keystroke
 * into a field with a placeholder restyled it (a style pass of ~0.2 ms a key in a trace of the
 * 200-field form); with the attribute gone the input has no placeholder box to update.
 */
function showPlaceholder(element: HTMLInputElement | HTMLTextAreaElement, text: string, placeholder: string | undefined): void {
  const shown = text === '' ? placeholder : undefined;
  if (shown) {
    if (element.getAttribute('placeholder') !== shown) element.setAttribute('placeholder', shown);
  } else if (element.hasAttribute('placeholder')) element.removeAttribute('placeholder');
}
