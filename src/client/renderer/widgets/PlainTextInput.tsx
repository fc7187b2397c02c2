import { memo, useCallback, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import CloseCircleFilled from '@ant-design/icons/es/icons/CloseCircleFilled';
import { rt } from '../common/i18n.ts';
import type { EditorProps } from './types.ts';
import { typeQuietly } from './quietTyping.ts';
import './plainTextInput.css';

const asText = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/**
 * The form's single-line text editor: a native input drawn as antd's outlined Input (same box,
 * states and clear button, from antd's CSS variables) whose typed text lives in the DOM until
 * it is committed on blur, Enter or clear. A keystroke runs no React render at all — antd's
 * Input re-rendered itself and its style hooks on every key — nor React's event dispatch: its
 * typing events go to this editor alone (quietTyping.ts; issue 17: keystroke → next frame).
 */
export const PlainTextInput = memo(function PlainTextInput(props: EditorProps) {
  const { id, spec, disabled, invalid, placeholder, onCommit, onPending } = props;
  const committed = asText(props.value);
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLSpanElement>(null);
  const maxLength = typeof spec.prop.maxLength === 'number' ? spec.prop.maxLength : undefined;

  /** The clear button shows while there is text; set on the element, so typing renders nothing. */
  const markFilled = useCallback((text: string) => {
    boxRef.current?.toggleAttribute('data-filled', text !== '');
  }, []);

  // What is typed marks the box filled (the clear button) and the field pending, outside React.
  const latestPending = useRef(onPending);
  latestPending.current = onPending;
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    return typeQuietly(input, (text) => {
      markFilled(text);
      latestPending.current?.(text);
    });
  }, [markFilled]);

  // A value from outside (a fill, a restored draft, a commit) replaces what the input shows.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (input && input.value !== committed) input.value = committed;
    markFilled(input?.value ?? committed);
  }, [committed, markFilled]);

  const commit = useCallback(() => onCommit(inputRef.current?.value ?? ''), [onCommit]);
  const clear = useCallback(() => {
    const input = inputRef.current;
    if (!input) return;
    input.value = '';
    markFilled('');
    onCommit('');
    input.focus();
  }, [markFilled, onCommit]);

  return (
    <span
      ref={boxRef}
      className={`erp-text-input${invalid ? ' erp-text-input-error' : ''}${disabled ? ' erp-text-input-disabled' : ''}`}
      onMouseDown={(event) => {
        // A click on the box's padding or the clear button keeps the caret in the input.
        if (event.target !== inputRef.current) event.preventDefault();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) inputRef.current?.focus();
      }}
    >
      <input
        ref={inputRef}
        id={id}
        type="text"
        defaultValue={committed}
        disabled={disabled}
        placeholder={placeholder}
        maxLength={maxLength}
        aria-invalid={invalid || undefined}
        onBlur={commit}
        onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) commit();
        }}
      />
      {!disabled && (
        <button type="button" tabIndex={-1} className="erp-text-input-clear" aria-label={rt('form.clear')} onClick={clear}>
          <CloseCircleFilled />
        </button>
      )}
    </span>
  );
});
