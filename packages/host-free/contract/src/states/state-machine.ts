/*
 * A state machine as data: the states, where a record may start, and ONE table of events, each
 * naming the states it may leave and the state it leads to. The code that moves a state asks the
 * table (`next`, `canMove`, `assertMove`) instead of restating the rule.
 */

/** One event of a transition table: the states it applies in, and where it leads. */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/** A transition table and the checks derived from it. */
export interface StateMachine<S extends string, E extends string> {
  readonly states: readonly S[];
  /** The states a new record may be written in. */
  readonly initial: readonly S[];
  readonly transitions: Readonly<Record<E, Transition<S>>>;
  /** Where `event` leads from `from`, or undefined when the event does not apply there. */
  next(from: S, event: E): S | undefined;
  /** True when some event moves `from` to `to`. Staying in a state is not a move. */
  canMove(from: S, to: S): boolean;
  /** The events that move `from` to `to` (empty when none does). */
  eventsBetween(from: S, to: S): E[];
  /** @throws TransitionError when no event moves `from` to `to`. */
  assertMove(from: S, to: S): void;
}

/** A move the transition table does not allow: a bug in the caller, never the user's input. */
export class TransitionError extends Error {
  override readonly name = 'TransitionError';
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`${machine}: no transition from ${from} to ${to}`);
  }
}

/** Builds the checks of a transition table, after checking the table names only its own states. */
export function defineStateMachine<S extends string, E extends string>(definition: {
  name: string;
  states: readonly S[];
  initial: readonly S[];
  transitions: Record<E, Transition<S>>;
}): StateMachine<S, E> {
  const { name, states, initial } = definition;
  const known = new Set<string>(states);
  const transitions = Object.freeze({ ...definition.transitions });
  const entries = Object.entries(transitions) as [E, Transition<S>][];
  for (const [event, t] of entries) {
    for (const state of [...t.from, t.to]) {
      if (!known.has(state)) throw new TypeError(`${name}: event ${event} names an unknown state ${state}`);
    }
  }
  for (const state of initial) if (!known.has(state)) throw new TypeError(`${name}: unknown initial state ${state}`);
  const eventsBetween = (from: S, to: S): E[] =>
    from === to ? [] : entries.filter(([, t]) => t.to === to && t.from.includes(from)).map(([event]) => event);
  return {
    states,
    initial,
    transitions,
    next: (from, event) => {
      const t = transitions[event];
      return t?.from.includes(from) ? t.to : undefined;
    },
    canMove: (from, to) => eventsBetween(from, to).length > 0,
    eventsBetween,
    assertMove: (from, to) => {
      if (eventsBetween(from, to).length === 0) throw new TransitionError(name, from, to);
    },
  };
}
