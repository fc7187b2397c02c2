import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * The message API bound to the themed antd <App> context. The shell registers it on mount;
 * until then (or outside React) antd's static `message` is used.
 */
let bound: MessageInstance | undefined;

export function bindMessageApi(api: MessageInstance | undefined): void {
  bound = api;
}

export function notifier(): MessageInstance {
  return bound ?? message;
}
