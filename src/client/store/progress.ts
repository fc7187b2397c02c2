import { create } from 'zustand';

/** Counts running calls and route loads; the top progress bar shows while the count is above 0. */
interface ProgressState {
  pending: number;
  start: () => void;
  done: () => void;
}

export const useProgress = create<ProgressState>((set) => ({
  pending: 0,
  start: () => set((s) => ({ pending: s.pending + 1 })),
  done: () => set((s) => ({ pending: Math.max(0, s.pending - 1) })),
}));

export const progress = {
  start: () => useProgress.getState().start(),
  done: () => useProgress.getState().done(),
};
