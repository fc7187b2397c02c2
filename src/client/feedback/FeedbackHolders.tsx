/** antd's message and modal holders (loaded by FeedbackProvider in idle time), handed to the hub. */
import { useEffect } from 'react';
import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import type { FeedbackHub } from './feedbackHub.ts';

export default function FeedbackHolders({ hub }: { hub: FeedbackHub }) {
  const [message, messageHolder] = useMessage();
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
