import { memo } from 'react';
import type { EditorProps } from './types.ts';
import { useTypedText } from './useTypedText.ts';
import './plainTextInput.css';

/**
 * The form's long-text editor (备注 and the like, JSON): a native text area drawn as antd's
 * outlined TextArea, whose typed text lives in the DOM until it is committed on blur, as
 * PlainTextInput's does: a keystroke runs no React render and none of React's event dispatch
 * (useTypedText.ts; issue 17). Enter is a new line; the box keeps its rows while typing and can
 * be made taller by hand.
 */
export const PlainTextArea = memo(function PlainTextArea(props: EditorProps) {
  const { spec, disabled, invalid } = props;
  const { ref, fieldProps } = useTypedText<HTMLTextAreaElement>(props);
  const rows = spec.widget === 'json' ? 4 : 2;
  return (
    <textarea
      ref={ref}
      {...fieldProps}
      className={`erp-text-area${invalid ? ' erp-text-input-error' : ''}${disabled ? ' erp-text-input-disabled' : ''}${spec.widget === 'json' ? ' erp-text-area-code' : ''}`}
      style={{ ['--erp-rows' as string]: rows }}
      rows={rows}
    />
  );
});
