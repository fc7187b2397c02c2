import { memo, useCallback, type KeyboardEvent } from 'react';
import CloseCircleFilled from '@ant-design/icons/es/icons/CloseCircleFilled';
import { rt } from '../common/i18n.ts';
import type { EditorProps } from './types.ts';
import { useTypedText } from './useTypedText.ts';
import './plainTextInput.css';

/**
 * The form's single-line text editor: a native input drawn as antd's outlined Input (same box,
 * states and clear button, from antd's CSS variables) whose typed text lives in the DOM until
 * it is committed on blur, Enter or clear. A keystroke runs no React render at all — antd's
 * Input re-rendered itself and its style hooks on every key — nor React's event dispatch: its
 * typing events go to this editor alone (useTypedText.ts; issue 17: keystroke → next frame).
 */
export const PlainTextInput = memo(function PlainTextInput(props: EditorProps) {
  const { disabled, invalid, onCommit } = props;
  // The clear button shows while there is text; set on the box, so typing renders nothing.
  const markFilled = useCallback((text: string, input: HTMLInputElement) => {
    input.parentElement?.toggleAttribute('data-filled', text !== '');
  }, []);
  const { ref: inputRef, commit, shown, fieldProps } = useTypedText<HTMLInputElement>(props, markFilled);

  const clear = useCallback(() => {
    const input = inputRef.current;
    if (!input) return;
    input.value = '';
    shown(input);
    onCommit('');
    input.focus();
  }, [inputRef, shown, onCommit]);

  return (
    <span
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
        type="text"
        {...fieldProps}
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
