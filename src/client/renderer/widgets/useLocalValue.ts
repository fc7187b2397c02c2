import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Local editing state of a field: follows the committed value when it changes from outside
 * (a fill, a restored draft), and reports the typed value on commit only when it differs.
 */
export function useLocalValue<T>(value: T, onCommit: (value: T) => void, onPending?: (value: T) => void) {
  const [local, setLocal] = useState<T>(value);
  const localRef = useRef(local);
  const committedRef = useRef(value);
  useEffect(() => {
    committedRef.current = value;
    localRef.current = value;
    setLocal(value);
  }, [value]);

  const change = useCallback(
    (next: T) => {
      localRef.current = next;
      setLocal(next);
      onPending?.(next);
    },
    [onPending],
  );

  const commit = useCallback(
    (next: T = localRef.current) => {
      localRef.current = next;
      committedRef.current = next;
      onCommit(next);
    },
    [onCommit],
  );

  return { local, change, commit };
}
