/** antd's message and modal holders (loaded by FeedbackProvider in idle time), handed to the hub. */
import { useEffect } from 'react';
import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import type { FeedbackHub } from './feedbackHub.ts';

let toastRoot: HTMLElement | undefined;

/**
 * The toasts' own box at the end of <body>, not <body> itself (antd's default): React listens for
 * every event at each portal's container, so a portal into <body> ran React's event dispatch a
 * second time for every event anywhere on the page (a keystroke's keydown, keyup, input; every
 * pointer move), as <body> is the ancestor of every other root and portal.
 */
function toastContainer(): HTMLElement {
  if (!toastRoot?.isConnected) {
    toastRoot = document.createElement('div');
    toastRoot.className = 'erp-toast-root';
    document.body.appendChild(toastRoot);
  }
  return toastRoot;
}

export default function FeedbackHolders({ hub }: { hub: FeedbackHub }) {
  const [message, messageHolder] = useMessage({ getContainer: toastContainer });
  const [modal, modalHolder] = useModal();
  useEffect(() => {
    hub.attach({ message, modal });
    return () => hub.detach();
  }, [hub, message, modal]);
  return (
    <>
      {modalHolder}
      {messageHolder}
    </>
  );
}
