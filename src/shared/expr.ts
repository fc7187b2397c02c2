/**
 * Linkage expressions (visible / required / disabled when …) as JSON, evaluated without eval.
 * The same evaluator runs in the browser and on the server so a rule can never disagree.
 *
 *   {"var": "field"}            value of a field (dot paths allowed)
 *   {"eq": [a, b]}  {"ne": …}  loose on numbers-vs-strings ("1" equals 1), strict otherwise
 *   {"gt"|"ge"|"lt"|"le": [a, b]}
 *   {"in": [a, [x, y]]}
 *   {"and": [...]} {"or": [...]} {"not": x}
 *   {"empty": x} {"notEmpty": x}  null, undefined, "", [] and {} are empty
 */
export type Expr =
  | string
  | number
  | boolean
  | null
  | Expr[]
  | { [op: string]: Expr | Expr[] };

const OPERATORS = new Set(['var', 'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'in', 'and', 'or', 'not', 'empty', 'notEmpty']);

export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

function readVar(data: Record<string, unknown>, path: string): unknown {
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function looseEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'number' && typeof b === 'string') || (typeof a === 'string' && typeof b === 'number')) {
    return String(a) === String(b);
  }
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  return false;
}

function compare(a: unknown, b: unknown): number {
  const na = Number(a);
  const nb = Number(b);
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return String(a).localeCompare(String(b));
}

/** Throws on an unknown operator so a typo in a schema fails lint instead of silently passing. */
export function evaluate(expr: Expr, data: Record<string, unknown>): unknown {
  if (expr === null || typeof expr !== 'object') return expr;
  if (Array.isArray(expr)) return expr.map((item) => evaluate(item, data));
  const keys = Object.keys(expr);
  if (keys.length !== 1 || !OPERATORS.has(keys[0])) {
    throw new Error(`unknown expression operator: ${keys.join(',')}`);
  }
  const op = keys[0];
  const arg = (expr as Record<string, Expr | Expr[]>)[op];
  const args = Array.isArray(arg) ? arg : [arg];
  const value = (i: number) => evaluate(args[i] as Expr, data);
  switch (op) {
    case 'var':
      return readVar(data, String(value(0)));
    case 'eq':
      return looseEqual(value(0), value(1));
    case 'ne':
      return !looseEqual(value(0), value(1));
    case 'gt':
      return compare(value(0), value(1)) > 0;
    case 'ge':
      return compare(value(0), value(1)) >= 0;
    case 'lt':
      return compare(value(0), value(1)) < 0;
    case 'le':
      return compare(value(0), value(1)) <= 0;
    case 'in': {
      const list = value(1);
      return Array.isArray(list) && list.some((item) => looseEqual(item, value(0)));
    }
    case 'and':
      return args.every((_, i) => Boolean(value(i)));
    case 'or':
      return args.some((_, i) => Boolean(value(i)));
    case 'not':
      return !value(0);
    case 'empty':
      return isEmptyValue(value(0));
    case 'notEmpty':
      return !isEmptyValue(value(0));
  }
  return undefined;
}

/** Lists operators used by an expression; lint uses it to reject unknown ones early. */
export function checkExpression(expr: Expr): string[] {
  const problems: string[] = [];
  const walk = (node: Expr) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const keys = Object.keys(node);
    if (keys.length !== 1 || !OPERATORS.has(keys[0])) problems.push(`unknown operator ${keys.join(',')}`);
    for (const key of keys) {
      const child = (node as Record<string, Expr | Expr[]>)[key];
      (Array.isArray(child) ? child : [child]).forEach(walk);
    }
  };
  walk(expr);
  return problems;
}
