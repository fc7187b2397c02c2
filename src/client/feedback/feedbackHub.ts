/**
 * The toast and dialog APIs of the shell (antd's message and modal hooks) before antd's holders
 * have loaded. antd's <App> would bring the holders, their styles and rc-notification/rc-dialog
 * with the first page (~18 KiB gzip); no page needs them until someone acts, so the shell loads
 * them in idle time (FeedbackProvider) and this hub stands in meanwhile: a call made before they
 * are there waits for them (and asks for them at once), and its handle (close, destroy, update,
 * then) acts on the real message or dialog once it exists.
 */
import type { MessageInstance, MessageType } from 'antd/es/message/interface';
import type { HookAPI } from 'antd/es/modal/useModal';

export interface Feedback {
  message: MessageInstance;
  modal: HookAPI;
}

export interface FeedbackHub {
  /** Stable: the same object for the hub's life, whether or not the holders are there. */
  readonly feedback: Feedback;
  /** The holders mounted: calls go straight to them, and those waiting run now, in order. */
  attach(real: Feedback): void;
  /** The holders unmounted: calls wait again. */
  detach(): void;
}

const NOTICE_KINDS = ['info', 'success', 'error', 'warning', 'loading'] as const;
const DIALOG_KINDS = ['info', 'success', 'error', 'warning', 'confirm'] as const;

type DialogHandle = ReturnType<HookAPI['confirm']>;
type DialogUpdate = Parameters<DialogHandle['update']>[0];

/** `requestLoad`: asks for the holders now (a call came before idle time did). */
export function createFeedbackHub(requestLoad: () => void): FeedbackHub {
  let real: Feedback | undefined;
  const waiting: ((api: Feedback) => void)[] = [];

  const whenReady = (run: (api: Feedback) => void) => {
    if (real) return run(real);
    waiting.push(run);
    requestLoad();
  };

  /** A toast asked for early: its handle closes it (or keeps it from showing) and settles with it. */
  const laterNotice = (show: (api: Feedback) => MessageType): MessageType => {
    let shown: MessageType | undefined;
    let closed = false;
    const settled = new Promise<boolean>((resolve) =>
      whenReady((api) => {
        if (closed) return resolve(false);
        shown = show(api);
        shown.then(resolve);
      }),
    );
    const close = () => {
      closed = true;
      shown?.();
    };
    return Object.assign(close, { then: settled.then.bind(settled) }) as MessageType;
  };

  const message = {
    open: (args) => (real ? real.message.open(args) : laterNotice((api) => api.message.open(args))),
    destroy: (key) => whenReady((api) => api.message.destroy(key)),
  } as MessageInstance;
  for (const kind of NOTICE_KINDS) {
    message[kind] = (...args) => (real ? real.message[kind](...args) : laterNotice((api) => api.message[kind](...args)));
  }

  /** A dialog asked for early: destroy/update wait for it; `then` settles as the dialog's does. */
  const laterDialog = (show: (api: Feedback) => DialogHandle): DialogHandle => {
    let shown: DialogHandle | undefined;
    const pending: ((dialog: DialogHandle) => void)[] = [];
    const onDialog = (act: (dialog: DialogHandle) => void) => (shown ? act(shown) : pending.push(act));
    // Boxed: the handle is a thenable, which a promise would adopt (and so await) instead of holding.
    const ready = new Promise<{ dialog: DialogHandle }>((resolve) =>
      whenReady((api) => {
        shown = show(api);
        for (const act of pending.splice(0)) act(shown);
        resolve({ dialog: shown });
      }),
    );
    return {
      destroy: () => onDialog((dialog) => dialog.destroy()),
      update: (update: DialogUpdate) => onDialog((dialog) => dialog.update(update)),
      // Only an awaited dialog is awaited on antd's side too (antd then leaves its onOk errors silent).
      then: <T>(resolve: (confirmed: boolean) => T, reject: VoidFunction) => ready.then(({ dialog }) => dialog.then(resolve, reject)),
    };
  };

  const modal = {} as HookAPI;
  for (const kind of DIALOG_KINDS) {
    modal[kind] = (config) => (real ? real.modal[kind](config) : laterDialog((api) => api.modal[kind](config)));
  }

  return {
    feedback: { message, modal },
    attach(api) {
      real = api;
      for (const run of waiting.splice(0)) run(api);
    },
    detach() {
      real = undefined;
    },
  };
}
