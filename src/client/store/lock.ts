import { md5 } from 'js-md5';
import { create } from 'zustand';
import { getStore, removeStore, setStore } from './storage.ts';

/** Lock screen state; stored so that a locked screen stays locked after a reload. */
interface LockState {
  locked: boolean;
  lock: (password: string) => void;
  /** Unlocks when the password matches; returns whether it did. */
  unlock: (password: string) => boolean;
  reset: () => void;
}

export const useLock = create<LockState>((set) => ({
  locked: getStore<boolean>('isLock') === true,
  lock: (password) => {
    // Only a hash is kept, so the lock password is not readable from storage.
    setStore('lockPasswd', md5(password));
    setStore('isLock', true);
    set({ locked: true });
  },
  unlock: (password) => {
    if (getStore<string>('lockPasswd') !== md5(password)) return false;
    removeStore('isLock');
    removeStore('lockPasswd');
    set({ locked: false });
    return true;
  },
  reset: () => {
    removeStore('isLock');
    removeStore('lockPasswd');
    set({ locked: false });
  },
}));
