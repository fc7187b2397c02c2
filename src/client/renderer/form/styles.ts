/**
 * The form's few layout rules, injected once. Colours come from antd's CSS variables, so every
 * shell theme (light or dark) applies without a hard-coded colour.
 *
 * A narrow form (a bill's head in a narrow window, a dialog on a small screen) keeps its controls
 * wide enough to read: fields of a quarter or a third of the row take half (a row of mixed small
 * spans, such as a contact line's 4 + 4 + 3 + 5 + 5 + 3, is left as it is), and under 480 px every
 * field takes the whole row. The form's own width decides, not the window's: the sidebar and a
 * dialog's width decide what the form gets.
 */
const CSS = `
.erp-form { --erp-label-width: 100px; container-type: inline-size; }
.erp-grid { display: grid; grid-template-columns: repeat(24, minmax(0, 1fr)); column-gap: 16px; }
.erp-field { display: flex; align-items: flex-start; min-width: 0; margin-bottom: 22px; position: relative;
  grid-column: span var(--erp-span, 24); }
@container (max-width: 719px) {
  .erp-grid > .erp-field[data-span="6"], .erp-grid > .erp-field[data-span="8"] { grid-column: span 12; }
}
@container (max-width: 479px) {
  .erp-grid > .erp-field { grid-column: 1 / -1; }
}
.erp-field[hidden] { display: none; }
.erp-label { flex: 0 0 var(--erp-label-width); width: var(--erp-label-width); padding-right: 10px; text-align: right;
  line-height: 32px; color: var(--ant-color-text, rgba(0,0,0,.88)); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.erp-form-view .erp-field { margin-bottom: 6px; }
.erp-picker-table .ant-table-body { height: 352px; }
.erp-field-block > .erp-label { display: none; }
.erp-label-top .erp-field { flex-direction: column; }
.erp-label-top .erp-label { flex-basis: auto; width: auto; text-align: left; line-height: 22px; padding: 0 0 4px; }
.erp-control { flex: 1 1 auto; min-width: 0; position: relative; }
.erp-control > .ant-radio-group, .erp-control > .ant-checkbox-group { display: inline-flex; flex-wrap: wrap; align-items: center; min-height: 32px; }
.erp-control > .ant-switch { margin-top: 5px; }
.erp-required { color: var(--ant-color-error, #ff4d4f); margin-right: 4px; font-family: SimSun, sans-serif; }
.erp-field-error { position: absolute; left: 0; top: 100%; font-size: 12px; line-height: 20px;
  color: var(--ant-color-error, #ff4d4f); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }
.erp-cell-error { position: static; white-space: normal; }
.erp-section-title { font-weight: 600; margin: 4px 0 14px; padding-left: 8px;
  border-left: 3px solid var(--ant-color-primary, #1677ff); line-height: 18px; }
.erp-readonly { min-height: 32px; line-height: 22px; padding: 5px 0; word-break: break-all;
  color: var(--ant-color-text, rgba(0,0,0,.88)); }
.erp-readonly-multiline { white-space: pre-wrap; }
.erp-readonly-list { margin: 0; padding-left: 20px; }
.erp-text-list { display: flex; flex-direction: column; gap: 6px; align-items: flex-start; }
.erp-text-list-row { display: flex; align-items: center; gap: 6px; width: 100%; }
.erp-text-list-index { flex: 0 0 20px; color: var(--ant-color-text-tertiary, rgba(0,0,0,.45)); text-align: right; }
.erp-placeholder { height: 32px; border-radius: var(--ant-border-radius, 6px); outline: none;
  border: 1px solid var(--ant-color-border, #d9d9d9); background: var(--ant-color-bg-container, #fff); }
.erp-placeholder-textarea, .erp-placeholder-json { height: 54px; }
.erp-placeholder-lines { height: 96px; }
.erp-placeholder-image { width: 102px; height: 102px; border-style: dashed; }
.erp-placeholder-radio, .erp-placeholder-switch, .erp-placeholder-checkbox, .erp-placeholder-upload, .erp-placeholder-textList { border-color: transparent; background: transparent; }
.erp-lines .ant-table-cell { vertical-align: top; }
`;

let injected = false;

export function injectFormStyles(): void {
  if (injected || typeof document === 'undefined') return;
  injected = true;
  const style = document.createElement('style');
  style.dataset.erp = 'form';
  style.textContent = CSS;
  document.head.appendChild(style);
}
