/**
 * Typing into a plain text field without React's event system (issue 17: keystroke → next frame).
 *
 * React listens for every event at its root, so each keystroke into any input runs React's
 * dispatch (find the fiber, walk to the root collecting listeners, build synthetic events, restore
 * controlled state) for keypress, textInput, beforeinput and input: about 1 ms a key on the bench
 * machine, and 2 ms more on a page's first key while V8 compiles that code. A field registered
 * here has those four events stopped at the window, before they reach React's root, and its own
 * `onText` called with the input's text; the browser's editing is untouched (nothing is
 * cancelled). keydown, keyup, focus, blur, change and composition events still reach React, so
 * Enter, Escape, Tab, shortcuts and IME input behave as before.
 */
const TYPING_EVENTS = ['keypress', 'textInput', 'beforeinput', 'input'] as const;

const fields = new WeakMap<EventTarget, (text: string) => void>();
let listening = false;

function onTyping(event: Event): void {
  const target = event.target;
  const onText = target ? fields.get(target) : undefined;
  if (!onText) return;
  event.stopPropagation();
  if (event.type === 'input') onText((target as HTMLInputElement | HTMLTextAreaElement).value);
}

/** Routes the input's typing events to `onText` alone; call the answer to stop. */
export function typeQuietly(input: HTMLInputElement | HTMLTextAreaElement, onText: (text: string) => void): () => void {
  if (!listening) {
    listening = true;
    for (const type of TYPING_EVENTS) window.addEventListener(type, onTyping, true);
  }
  fields.set(input, onText);
  return () => {
    if (fields.get(input) === onText) fields.delete(input);
  };
}
