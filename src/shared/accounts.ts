/**
 * The chart of accounts and the statement layouts (schemas/accounts.json): read by the server's
 * general ledger and statements, and checked by the schema lint.
 */
export type AccountType = 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';

export interface Account {
  code: string;
  name: string;
  nameEn: string;
  type: AccountType;
}

/**
 * A statement line: the balance of its accounts (partners: only the partners whose balance lies on
 * that side, so 应收账款 and 预收账款 split one account), with profit the revenue and expense accounts
 * too (未分配利润), or the sum of other lines ('-key' subtracts).
 */
export interface StatementLine {
  key: string;
  title: string;
  titleEn: string;
  side?: 'asset' | 'liability' | 'equity';
  accounts?: string[];
  partners?: 'debit' | 'credit';
  profit?: boolean;
  sum?: string[];
}

export interface Chart {
  description?: string;
  accounts: Account[];
  party: { AR: string; AP: string };
  balanceSheet: StatementLine[];
  profitStatement: StatementLine[];
}

/** What is wrong with a chart (empty when sound): unknown accounts, sums of unknown or later lines. */
export function chartProblems(chart: Chart): string[] {
  const problems: string[] = [];
  const codes = new Set(chart.accounts.map((a) => a.code));
  if (codes.size !== chart.accounts.length) problems.push('an account code appears twice');
  for (const kind of ['AR', 'AP'] as const) if (!codes.has(chart.party[kind])) problems.push(`party.${kind}: unknown account ${chart.party[kind]}`);
  for (const [name, lines] of [['balanceSheet', chart.balanceSheet], ['profitStatement', chart.profitStatement]] as const) {
    const seen = new Set<string>();
    for (const line of lines) {
      for (const code of line.accounts ?? []) if (!codes.has(code)) problems.push(`${name}.${line.key}: unknown account ${code}`);
      for (const term of line.sum ?? []) if (!seen.has(term.replace(/^-/, ''))) problems.push(`${name}.${line.key}: sums ${term}, not an earlier line`);
      if (!line.accounts && !line.sum) problems.push(`${name}.${line.key}: neither accounts nor sum`);
      seen.add(line.key);
    }
  }
  return problems;
}
