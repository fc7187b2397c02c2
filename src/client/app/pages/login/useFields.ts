import { useCallback, useRef, useState } from 'react';

/** A field's check: its message when the value is refused, else undefined. */
export type FieldRule = (value: string) => string | undefined;

export function required(message: string): FieldRule {
  return (value) => (value.trim() ? undefined : message);
}

export function matches(pattern: RegExp, message: string): FieldRule {
  return (value) => (!value || pattern.test(value) ? undefined : message);
}

export interface Fields<K extends string> {
  values: Record<K, string>;
  errors: Partial<Record<K, string>>;
  /** Sets a value and checks it again (as antd's forms do on change). */
  set(name: K, value: string): void;
  /** Checks the named fields (all by default): their values, or undefined with the messages shown. */
  validate(names?: K[]): Record<K, string> | undefined;
}

/** The values and messages of a small form whose fields each have a list of rules (the sign-in forms). */
export function useFields<K extends string>(initial: Record<K, string>, rules: Partial<Record<K, FieldRule[]>>): Fields<K> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const latest = useRef(values);
  // Rules carry translated messages: the latest ones apply.
  const rulesRef = useRef(rules);
  rulesRef.current = rules;

  const check = useCallback((name: K, value: string) => {
    for (const rule of rulesRef.current[name] ?? []) {
      const message = rule(value);
      if (message) return message;
    }
    return undefined;
  }, []);

  const set = useCallback(
    (name: K, value: string) => {
      latest.current = { ...latest.current, [name]: value };
      setValues(latest.current);
      setErrors((shown) => ({ ...shown, [name]: check(name, value) }));
    },
    [check],
  );

  const validate = useCallback(
    (names?: K[]) => {
      const current = latest.current;
      const found: Partial<Record<K, string>> = {};
      for (const name of names ?? (Object.keys(current) as K[])) found[name] = check(name, current[name]);
      setErrors((shown) => ({ ...shown, ...found }));
      return Object.values(found).some(Boolean) ? undefined : current;
    },
    [check],
  );

  return { values, errors, set, validate };
}
