/**
 * The `${…}` expressions of a process model (sequence-flow conditions, assignee and candidate
 * attributes), in the small JUEL subset Flowable models use: variables, numbers, 'strings',
 * true/false/null, ! not, && and, || or, == eq, != ne, > gt, >= ge, < lt, <= le, parentheses.
 * Parsed by hand and evaluated against the instance's variables: no eval, no new Function, no
 * property access, so an uploaded model can read variables and nothing else.
 */

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'var'; name: string }
  | { k: 'not'; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node };

const WORD_OPS: Record<string, string> = { and: '&&', or: '||', not: '!', eq: '==', ne: '!=', gt: '>', ge: '>=', lt: '<', le: '<=' };

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)|(&&|\|\||==|!=|>=|<=|[!()<>]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error(`无法识别的内容「${text.slice(at).trim()}」`);
    tokens.push(m[0].trim());
    at = re.lastIndex;
  }
  return tokens;
}

function parse(text: string): Node {
  const tokens = tokenize(text).map((t) => (Object.hasOwn(WORD_OPS, t) ? WORD_OPS[t] : t));
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const binary = (ops: string[], sub: () => Node) => (): Node => {
    let a = sub();
    while (ops.includes(peek())) {
      const op = next();
      a = { k: 'bin', op, a, b: sub() };
    }
    return a;
  };
  const primary = (): Node => {
    const t = next();
    if (t === undefined) throw new Error('表达式不完整');
    if (t === '!') return { k: 'not', a: primary() };
    if (t === '(') {
      const inner = or();
      if (next() !== ')') throw new Error('缺少右括号');
      return inner;
    }
    if (/^\d/.test(t)) return { k: 'lit', v: Number(t) };
    if (t.startsWith("'") || t.startsWith('"')) return { k: 'lit', v: t.slice(1, -1).replace(/\\(.)/g, '$1') };
    if (t === 'true' || t === 'false') return { k: 'lit', v: t === 'true' };
    if (t === 'null') return { k: 'lit', v: null };
    if (/^[A-Za-z_]/.test(t)) return { k: 'var', name: t };
    throw new Error(`意外的「${t}」`);
  };
  const compare = binary(['==', '!=', '>', '>=', '<', '<='], primary);
  const and = binary(['&&'], compare);
  const or = binary(['||'], and);
  const tree = or();
  if (i < tokens.length) throw new Error(`多余的「${tokens[i]}」`);
  return tree;
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true' || (typeof v === 'number' && v !== 0) || (typeof v === 'string' && v !== '' && v !== 'false' && v !== '0');
}

function evalNode(node: Node, vars: Record<string, unknown>): unknown {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'var':
      // Own variables only: constructor, __proto__ and the like are not variables.
      return Object.hasOwn(vars, node.name) ? (vars[node.name] ?? null) : null;
    case 'not':
      return !truthy(evalNode(node.a, vars));
    case 'bin': {
      if (node.op === '&&') return truthy(evalNode(node.a, vars)) && truthy(evalNode(node.b, vars));
      if (node.op === '||') return truthy(evalNode(node.a, vars)) || truthy(evalNode(node.b, vars));
      let a = evalNode(node.a, vars);
      let b = evalNode(node.b, vars);
      // Numbers compare as numbers even when a variable arrived as text ("3").
      if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b))) b = Number(b);
      if (typeof b === 'number' && typeof a === 'string' && a.trim() !== '' && !Number.isNaN(Number(a))) a = Number(a);
      if (typeof a === 'boolean' && typeof b === 'string') b = b === 'true';
      if (typeof b === 'boolean' && typeof a === 'string') a = a === 'true';
      switch (node.op) {
        case '==':
          return a === b || (a == null && b == null);
        case '!=':
          return !(a === b || (a == null && b == null));
        case '>':
          return a != null && b != null && (a as number) > (b as number);
        case '>=':
          return a != null && b != null && (a as number) >= (b as number);
        case '<':
          return a != null && b != null && (a as number) < (b as number);
        default:
          return a != null && b != null && (a as number) <= (b as number);
      }
    }
  }
}

/** The body of `${…}`, or undefined for text that is not one whole expression. */
export function expressionBody(text: string): string | undefined {
  const m = /^\s*\$\{([\s\S]*)\}\s*$/.exec(text);
  return m ? m[1] : undefined;
}

/** Why an expression cannot be evaluated (a Chinese message), or null when it can. */
export function checkExpression(text: string): string | null {
  const body = expressionBody(text);
  if (body === undefined) return `表达式「${text}」应写成 \${…}`;
  try {
    parse(body);
    return null;
  } catch (error) {
    return `表达式「${text}」有误：${(error as Error).message}`;
  }
}

const parsed = new Map<string, Node>();

/** The value of `${…}` against the variables (plain text answers as itself). */
export function evaluateExpression(text: string, vars: Record<string, unknown>): unknown {
  const body = expressionBody(text);
  if (body === undefined) return text;
  let tree = parsed.get(body);
  if (!tree) {
    tree = parse(body);
    if (parsed.size > 1000) parsed.clear();
    parsed.set(body, tree);
  }
  return evalNode(tree, vars);
}

/** Whether a condition holds. */
export function conditionHolds(text: string, vars: Record<string, unknown>): boolean {
  return truthy(evaluateExpression(text, vars));
}
