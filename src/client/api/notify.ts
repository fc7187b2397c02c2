/**
 * Short messages (toasts) for the HTTP client and the pages. The shell binds the themed message API
 * of antd's <App> context once antd has loaded (everything after sign-in); before that (the sign-in
 * page, which ships without antd) a message loads antd's message module on first use.
 */
export interface Notifier {
  success(text: string): void;
  error(text: string): void;
  warning(text: string): void;
  info(text: string): void;
}

type Kind = keyof Notifier;

let bound: Notifier | undefined;

export function bindNotifier(api: Notifier | undefined): void {
  bound = api;
}

function showWithoutShell(kind: Kind, text: string): void {
  void import('antd/es/message').then(({ default: message }) => message[kind](text));
}

const unbound: Notifier = {
  success: (text) => showWithoutShell('success', text),
  error: (text) => showWithoutShell('error', text),
  warning: (text) => showWithoutShell('warning', text),
  info: (text) => showWithoutShell('info', text),
};

export function notifier(): Notifier {
  return bound ?? unbound;
}

/**
 * For a message shown just before leaving for the sign-in page (a lost session): the bound API
 * draws its messages inside antd's frame, which the sign-in page unmounts — the message would
 * vanish with it. This one is drawn by antd's static holder, outside every route.
 */
export function notifierOutsideFrame(): Notifier {
  return unbound;
}
