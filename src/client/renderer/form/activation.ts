/**
 * Editors mount when their field comes near the visible part of the dialog. A 200-field form
 * renders every field box (label, value box, error) at once, but only the editors that can be
 * seen pay for their antd component trees; the others mount while the user scrolls, tabs or
 * clicks into them, and then stay mounted (their typed text lives in them).
 */
import { useEffect, useState, type RefObject } from 'react';

/** Fields (in layout order) whose editors mount at once: the first screenful of a dialog. */
export const EAGER_FIELDS = 40;
let eagerFields = EAGER_FIELDS;

/** How many editors mount with a form; the client bench sets every one to measure that case too. */
export function eagerFieldCount(): number {
  return eagerFields;
}

export function setEagerFieldCount(count: number): void {
  eagerFields = count;
}
/** How far outside the visible area editors are mounted ahead of scrolling. */
const AHEAD = '480px 0px';
const SCROLL_PARENT = '.ant-modal-body, .ant-drawer-body';

type Wake = () => void;
const observers = new WeakMap<Element, IntersectionObserver>();
const wakers = new WeakMap<Element, Wake>();

function observerFor(root: Element | null): IntersectionObserver | undefined {
  if (typeof IntersectionObserver === 'undefined') return undefined;
  const key = root ?? document.documentElement;
  let observer = observers.get(key);
  if (!observer) {
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer!.unobserve(entry.target);
          wakers.get(entry.target)?.();
        }
      },
      { root, rootMargin: AHEAD },
    );
    observers.set(key, observer);
  }
  return observer;
}

/** True once the field's box has been near the visible area (or `eager`). */
export function useActivation(ref: RefObject<HTMLElement | null>, eager: boolean): [boolean, () => void] {
  const [active, setActive] = useState(eager);
  useEffect(() => {
    const element = ref.current;
    if (active || !element) return undefined;
    const observer = observerFor(element.closest(SCROLL_PARENT));
    if (!observer) {
      setActive(true);
      return undefined;
    }
    wakers.set(element, () => setActive(true));
    observer.observe(element);
    return () => {
      observer.unobserve(element);
      wakers.delete(element);
    };
  }, [active, ref]);
  return [active, () => setActive(true)];
}
