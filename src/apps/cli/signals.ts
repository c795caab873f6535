// Waiting for the stop signals of a foreground command (`proxy`, `simulator`).

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Where the stop signals come from; the process by default, an emitter in tests. */
export interface SignalSource {
  once(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

/** Resolves with the first SIGINT or SIGTERM, and then listens no more (a second signal has its default effect). */
export function untilStopped(signals: SignalSource): Promise<StopSignal> {
  return new Promise((resolve) => {
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    const stop = (signal: StopSignal) => {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      resolve(signal);
    };
    signals.once('SIGINT', onInt);
    signals.once('SIGTERM', onTerm);
  });
}
