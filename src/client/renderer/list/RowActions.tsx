import { Dropdown } from 'antd';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import { rt } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
// Also used by the tree table, which does not load the grid's stylesheet.
import './rowActions.css';

export interface RowButton {
  key: string;
  label: string;
  danger?: boolean;
  onClick(): void;
}

/** At most this many buttons show inline; the rest go to a hover "更多" dropdown. */
export const INLINE_ACTIONS = 3;

/** Inline buttons are plain elements styled with the theme's CSS variables: a 200-row page renders hundreds. */
export function RowActionButtons({ buttons }: { buttons: RowButton[] }) {
  const overflow = buttons.length > INLINE_ACTIONS;
  const inline = overflow ? buttons.slice(0, INLINE_ACTIONS) : buttons;
  const rest = overflow ? buttons.slice(INLINE_ACTIONS) : [];
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', whiteSpace: 'nowrap' }} data-testid="row-actions">
      {inline.map((button) => (
        <button
          key={button.key}
          type="button"
          className={button.danger ? 'erp-row-action erp-row-action-danger' : 'erp-row-action'}
          onClick={(event) => {
            event.stopPropagation();
            button.onClick();
          }}
        >
          {button.label}
        </button>
      ))}
      {rest.length > 0 && (
        <Dropdown
          trigger={['hover']}
          menu={{
            items: rest.map((button) => ({ key: button.key, label: button.label, danger: button.danger })),
            onClick: ({ key, domEvent }) => {
              domEvent.stopPropagation();
              rest.find((button) => button.key === key)?.onClick();
            },
          }}
        >
          <button type="button" className="erp-row-action" onClick={(e) => e.stopPropagation()}>
            {rt('list.more')}
            <DownOutlined style={{ fontSize: 10, marginInlineStart: 2 }} />
          </button>
        </Dropdown>
      )}
    </span>
  );
}

/** Width for the actions column from the widest possible button set of a row. */
/** Approximate rendered width of a short label at the 14px table font (CJK full width). */
export function textWidth(text: string): number {
  return [...text].reduce((sum, ch) => sum + (ch.charCodeAt(0) > 255 ? 14 : 7.5), 0) + 10;
}

/** A column never narrower than its own header (cell padding 2 × 8px and a little air). */
export function columnWidth(title: string, width: number | undefined): number | undefined {
  if (width === undefined) return undefined;
  return Math.max(width, Math.ceil(textWidth(title) + 24));
}

export function actionsColumnWidth(labels: string[]): number {
  const overflow = labels.length > INLINE_ACTIONS;
  const inline = overflow ? labels.slice(0, INLINE_ACTIONS) : labels;
  const width =
    inline.reduce((sum, text) => sum + textWidth(text), 0) + (overflow ? textWidth(rt('list.more')) + 14 : 0);
  return Math.max(80, Math.ceil(width + 24));
}
