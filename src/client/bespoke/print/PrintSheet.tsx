/** A printed bill on paper: heading, head fields, the line table with totals, words, signatures. */
import type { Sheet } from './sheet.ts';
import './print.css';

function headRows(sheet: Sheet): Sheet['head'][] {
  const rows: Sheet['head'][] = [];
  for (let i = 0; i < sheet.head.length; i += sheet.headColumns) rows.push(sheet.head.slice(i, i + sheet.headColumns));
  return rows;
}

export function PrintSheet({ sheet }: { sheet: Sheet }) {
  const width = `${100 / sheet.headColumns}%`;
  return (
    <div className="print-sheet" style={{ fontSize: `${sheet.fontSize}pt` }} data-testid="print-sheet">
      {sheet.company && <div className="ps-company">{sheet.company}</div>}
      <div className="ps-title">{sheet.title}</div>
      {sheet.printedAt && <div className="ps-meta">{sheet.printedAt}</div>}
      {sheet.head.length > 0 && (
        <table className="ps-head">
          <tbody>
            {headRows(sheet).map((row, i) => (
              <tr key={i}>
                {row.map((cell) => (
                  <td key={cell.label} style={{ width }}>
                    <span className="ps-label">{cell.label}：</span>
                    {cell.text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <table className="ps-lines">
        <thead>
          <tr>
            {sheet.columns.map((c) => (
              <th key={c.label}>{c.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sheet.rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j} className={sheet.columns[j]?.numeric ? 'ps-num' : j === 0 ? 'ps-index' : undefined}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
          {sheet.totals && (
            <tr className="ps-totals">
              {sheet.totals.map((cell, j) => (
                <td key={j} className={sheet.columns[j]?.numeric ? 'ps-num' : j === 0 ? 'ps-index' : undefined}>
                  {cell}
                </td>
              ))}
            </tr>
          )}
        </tbody>
      </table>
      {sheet.amountInWords && (
        <div className="ps-words">
          <span className="ps-label">{sheet.amountInWords.label}：</span>
          {sheet.amountInWords.words}
          <span className="ps-figure">￥{sheet.amountInWords.figure}</span>
        </div>
      )}
      {sheet.signatures.length > 0 && (
        <div className="ps-signs">
          {sheet.signatures.map((s) => (
            <span key={s.label} className="ps-sign">
              <span className="ps-label">{s.label}：</span>
              <span className="ps-sign-line">{s.text}</span>
            </span>
          ))}
        </div>
      )}
      {sheet.footer && <div className="ps-footer">{sheet.footer}</div>}
    </div>
  );
}
