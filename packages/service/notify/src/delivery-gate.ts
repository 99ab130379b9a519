/*
 * A gate per service the outbox worker sends through (a push service's origin; the SMTP
 * server), so a service that is slow or failing costs the people on it their own delay and
 * nobody else's. A service has at most `concurrency` sends in flight, and a circuit breaker:
 * after `failureThreshold` failures in a row (no answer, or "unavailable") it is open for a
 * cool-down that doubles each time it opens again (capped); then one send goes through as a
 * probe (half-open), and its outcome closes the circuit or opens it again.
 *
 * A send to a full service whose circuit is closed may wait for a slot, first come first
 * served, but only briefly (the caller's `signal`, e.g. a second) and only `maxWaiting` of them:
 * a healthy service frees a slot every few milliseconds, so a burst to it is sent at its pace
 * rather than rescheduled, while a hung one holds its waiters no longer than that. Every other
 * send the gate refuses at once (`open`, or `busy`), and the worker reschedules it.
 *
 * The state is this process's own: each replica learns of a failing service by itself (a few
 * failed sends each), so the gate needs no shared writes; nothing of it outlives a restart.
 */

export const DELIVERY_GATE_DEFAULTS = {
  /** Sends in flight to one service (FCM answers in ~100 ms: 8 carry ~80 a second per replica). */
  concurrency: 8,
  /** Sends that may wait for a slot of a full service. */
  maxWaiting: 32,
  /** Failures in a row that open the circuit. */
  failureThreshold: 5,
  /** The first cool-down; it doubles each time the circuit opens again, up to `maxCoolDownMs`. */
  coolDownMs: 30_000,
  maxCoolDownMs: 10 * 60_000,
  /** When a send refused because its service is busy may be tried again. */
  busyRetryMs: 2_000,
  /** Services remembered; past it, those with nothing in flight and no cool-down running are forgotten. */
  maxServices: 10_000,
};

export type DeliveryGateOptions = typeof DELIVERY_GATE_DEFAULTS;

/** What a send's end changed: the circuit opened (for `coolDownMs`) or closed again. */
export type GateChange = { change: 'opened'; failures: number; coolDownMs: number } | { change: 'closed' };

/** A send let through; `done` must be called once when it ends. */
export interface GatePass {
  admitted: true;
  /** `failed`: no answer, or the service said it is unavailable. Returns what changed, if anything. */
  done(failed: boolean): GateChange | null;
}

/**
 * A send not let through: `busy` (the service has all the sends it may have in flight and no
 * slot came in time, or its probe is out) or `open` (it failed too often; its cool-down runs
 * until `retryAt`).
 */
export interface GateRefusal {
  admitted: false;
  reason: 'busy' | 'open';
  retryAt: Date;
}

export interface DeliveryGate {
  /** A pass for one send to `service`, or a refusal; waits for a slot at most until `signal` aborts. */
  enter(service: string, signal?: AbortSignal): Promise<GatePass | GateRefusal>;
}

interface ServiceState {
  inFlight: number;
  /** Failures since the service last answered. */
  failures: number;
  /** While the circuit is open (or half-open): the end of its cool-down (ms); 0 when closed. */
  openUntil: number;
  /** Times it opened since the service last answered (the cool-down doubles with each). */
  opened: number;
  probing: boolean;
  /** Sends waiting for a slot, first come first served (only while the circuit is closed). */
  waiting: ((entry: GatePass | GateRefusal) => void)[];
}

export function createDeliveryGate(options: { now: () => Date } & Partial<DeliveryGateOptions>): DeliveryGate {
  const { now, ...given } = options;
  const limits: DeliveryGateOptions = { ...DELIVERY_GATE_DEFAULTS, ...given };
  const services = new Map<string, ServiceState>();

  const refuse = (reason: GateRefusal['reason'], retryAt: number): GateRefusal => ({
    admitted: false,
    reason,
    retryAt: new Date(retryAt),
  });

  /** Keeps the map bounded: forgets services with nothing in flight, those in a cool-down last. */
  function makeRoom(at: number): void {
    if (services.size < limits.maxServices) return;
    for (const [key, state] of services) if (state.inFlight === 0 && state.openUntil <= at) services.delete(key);
    if (services.size < limits.maxServices) return;
    for (const [key, state] of services) if (state.inFlight === 0) services.delete(key);
  }

  function admit(service: string, state: ServiceState, probe: boolean): GatePass {
    state.inFlight += 1;
    if (probe) state.probing = true;
    let ended = false;
    return {
      admitted: true,
      done(failed) {
        if (ended) return null;
        ended = true;
        state.inFlight -= 1;
        if (probe) state.probing = false;
        if (!failed) {
          const wasOpen = state.openUntil > 0;
          state.failures = 0;
          state.opened = 0;
          state.openUntil = 0;
          const next = state.waiting.shift();
          if (next) next(admit(service, state, false));
          // A service that answers and has nothing in flight needs no memory.
          else if (state.inFlight === 0 && services.get(service) === state) services.delete(service);
          return wasOpen ? { change: 'closed' } : null;
        }
        state.failures += 1;
        // A send that left before the circuit opened does not extend its cool-down; a probe does.
        if (!probe && (state.openUntil > 0 || state.failures < limits.failureThreshold)) {
          const next = state.openUntil > 0 ? undefined : state.waiting.shift();
          if (next) next(admit(service, state, false));
          return null;
        }
        state.opened += 1;
        const coolDownMs = Math.min(limits.maxCoolDownMs, limits.coolDownMs * 2 ** (state.opened - 1));
        state.openUntil = now().getTime() + coolDownMs;
        for (const waiter of state.waiting.splice(0)) waiter(refuse('open', state.openUntil));
        return { change: 'opened', failures: state.failures, coolDownMs };
      },
    };
  }

  /** Waits for a slot of a full service whose circuit is closed, until `signal` aborts. */
  function wait(state: ServiceState, signal: AbortSignal): Promise<GatePass | GateRefusal> {
    return new Promise((resolve) => {
      const gaveUp = () => {
        const at = state.waiting.indexOf(waiter);
        if (at >= 0) state.waiting.splice(at, 1);
        resolve(refuse('busy', now().getTime() + limits.busyRetryMs));
      };
      const waiter = (entry: GatePass | GateRefusal) => {
        signal.removeEventListener('abort', gaveUp);
        resolve(entry);
      };
      state.waiting.push(waiter);
      signal.addEventListener('abort', gaveUp, { once: true });
    });
  }

  return {
    async enter(service, signal) {
      const at = now().getTime();
      let state = services.get(service);
      if (!state) {
        makeRoom(at);
        state = { inFlight: 0, failures: 0, openUntil: 0, opened: 0, probing: false, waiting: [] };
        services.set(service, state);
      }
      if (state.openUntil > 0) {
        if (at < state.openUntil) return refuse('open', state.openUntil);
        // Half-open: one send finds out whether the service is back.
        if (state.probing) return refuse('busy', at + limits.busyRetryMs);
        return admit(service, state, true);
      }
      if (state.inFlight < limits.concurrency) return admit(service, state, false);
      if (!signal || signal.aborted || state.waiting.length >= limits.maxWaiting) return refuse('busy', at + limits.busyRetryMs);
      return wait(state, signal);
    },
  };
}
