import { describe, expect, it } from 'vitest';
import { createDeliveryGate, DELIVERY_GATE_DEFAULTS, type GatePass, type GateRefusal } from './delivery-gate.ts';

const START = Date.parse('2030-01-01T00:00:00.000Z');

function setup(limits: Partial<typeof DELIVERY_GATE_DEFAULTS> = {}) {
  let t = START;
  const gate = createDeliveryGate({ now: () => new Date(t), ...limits });
  const pass = async (service: string, signal?: AbortSignal): Promise<GatePass> => {
    const entry = await gate.enter(service, signal);
    if (!entry.admitted) throw new Error(`${service} refused (${entry.reason})`);
    return entry;
  };
  const refusal = async (service: string, signal?: AbortSignal): Promise<GateRefusal> => {
    const entry = await gate.enter(service, signal);
    if (entry.admitted) throw new Error(`${service} admitted`);
    return entry;
  };
  /** Opens the circuit of `service`: `failureThreshold` sends in a row that fail. */
  const open = async (service: string) => {
    let change = null;
    for (let i = 0; i < (limits.failureThreshold ?? DELIVERY_GATE_DEFAULTS.failureThreshold); i++)
      change = (await pass(service)).done(true);
    return change;
  };
  return { gate, pass, refusal, open, advance: (ms: number) => (t += ms), now: () => t };
}

/** Whether `promise` has settled (after the microtasks already queued have run). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

describe('delivery gate: sends in flight', () => {
  it('lets `concurrency` sends to one service through; without a wait the next is refused as busy, for busyRetryMs', async () => {
    const { pass, refusal } = setup({ concurrency: 3, busyRetryMs: 2_000 });
    const passes = [await pass('a'), await pass('a'), await pass('a')];
    expect(await refusal('a')).toEqual({ admitted: false, reason: 'busy', retryAt: new Date(START + 2_000) });
    passes[0]!.done(false);
    expect((await pass('a')).admitted).toBe(true);
  });

  it('services are counted apart: one full service does not hold another', async () => {
    const { pass, refusal } = setup({ concurrency: 1 });
    await pass('slow');
    expect((await refusal('slow')).reason).toBe('busy');
    expect((await pass('healthy')).admitted).toBe(true);
  });

  it('a pass counts once however often its end is reported', async () => {
    const { pass, refusal } = setup({ concurrency: 2 });
    const first = await pass('a');
    await pass('a');
    first.done(false);
    first.done(false);
    await pass('a');
    expect((await refusal('a')).reason).toBe('busy');
  });
});

describe('delivery gate: waiting for a slot', () => {
  it('a send to a full service waits for the next slot, first come first served', async () => {
    const { pass } = setup({ concurrency: 1 });
    const wait = new AbortController();
    const first = await pass('a');
    const order: string[] = [];
    const inOrder = (name: string) => (entry: GatePass) => {
      order.push(name);
      return entry;
    };
    const second = pass('a', wait.signal).then(inOrder('second'));
    const third = pass('a', wait.signal).then(inOrder('third'));
    expect(await settled(second)).toBe(false);
    first.done(false);
    (await second).done(true); // a failure below the threshold hands its slot on too
    await third;
    expect(order).toEqual(['second', 'third']);
  });

  it('gives up as busy when its signal aborts (a hung service frees no slot)', async () => {
    const { pass, refusal } = setup({ concurrency: 1, busyRetryMs: 2_000 });
    const held = await pass('hung');
    const wait = new AbortController();
    const waiting = refusal('hung', wait.signal);
    expect(await settled(waiting)).toBe(false);
    wait.abort();
    expect(await waiting).toEqual({ admitted: false, reason: 'busy', retryAt: new Date(START + 2_000) });
    // It no longer holds a place: the slot freed later goes to the next one to come.
    held.done(false);
    expect((await pass('hung')).admitted).toBe(true);
  });

  it('at most maxWaiting wait; the next is refused at once', async () => {
    const { pass, refusal } = setup({ concurrency: 1, maxWaiting: 2 });
    const wait = new AbortController();
    await pass('a');
    const waiting = [pass('a', wait.signal), pass('a', wait.signal)];
    expect((await refusal('a', wait.signal)).reason).toBe('busy');
    expect(await settled(Promise.race(waiting))).toBe(false);
  });

  it('when the circuit opens, those waiting are refused as open at once', async () => {
    const { pass, advance } = setup({ concurrency: 2, failureThreshold: 2, coolDownMs: 30_000 });
    const wait = new AbortController();
    const sends = [await pass('a'), await pass('a')];
    const waiting = pass('a', wait.signal).catch((error: Error) => error.message);
    advance(1_000);
    sends[0]!.done(true); // the slot goes to the one waiting
    const handedOn = await waiting;
    expect(typeof handedOn).not.toBe('string');
    const later = pass('a', wait.signal).catch((error: Error) => error.message);
    sends[1]!.done(true); // the second failure in a row opens the circuit
    expect(await later).toBe('a refused (open)');
  });
});

describe('delivery gate: circuit breaker', () => {
  it('opens after failureThreshold failures in a row, and refuses until its cool-down ends', async () => {
    const { pass, refusal, advance } = setup({ failureThreshold: 3, coolDownMs: 30_000 });
    expect((await pass('a')).done(true)).toBeNull();
    expect((await pass('a')).done(true)).toBeNull();
    expect((await pass('a')).done(true)).toEqual({ change: 'opened', failures: 3, coolDownMs: 30_000 });
    expect(await refusal('a')).toEqual({ admitted: false, reason: 'open', retryAt: new Date(START + 30_000) });
    advance(29_999);
    expect((await refusal('a', new AbortController().signal)).reason).toBe('open'); // an open circuit is never waited for
    expect((await pass('b')).admitted).toBe(true); // another service is not affected
  });

  it('an answer resets the count: failures must be in a row', async () => {
    const { pass } = setup({ failureThreshold: 3 });
    (await pass('a')).done(true);
    (await pass('a')).done(true);
    (await pass('a')).done(false);
    (await pass('a')).done(true);
    expect((await pass('a')).done(true)).toBeNull();
    expect((await pass('a')).done(true)).toMatchObject({ change: 'opened' });
  });

  it('after the cool-down one probe goes through (others are busy meanwhile); its answer closes the circuit', async () => {
    const { pass, refusal, open, advance } = setup({ failureThreshold: 2, coolDownMs: 30_000, busyRetryMs: 1_000 });
    await open('a');
    advance(30_000);
    const probe = await pass('a');
    expect(await refusal('a', new AbortController().signal)).toMatchObject({
      reason: 'busy',
      retryAt: new Date(START + 31_000),
    });
    expect(probe.done(false)).toEqual({ change: 'closed' });
    expect((await pass('a')).admitted).toBe(true);
    expect((await pass('a')).admitted).toBe(true);
  });

  it('a probe that fails opens it again for twice as long, up to maxCoolDownMs; an answer starts the cool-down over', async () => {
    const { pass, open, advance, now, refusal } = setup({ failureThreshold: 2, coolDownMs: 30_000, maxCoolDownMs: 100_000 });
    expect(await open('a')).toMatchObject({ change: 'opened', coolDownMs: 30_000 });
    const coolDowns: number[] = [];
    for (let i = 0; i < 3; i++) {
      advance((await refusal('a')).retryAt.getTime() - now());
      const change = (await pass('a')).done(true);
      if (change?.change === 'opened') coolDowns.push(change.coolDownMs);
    }
    expect(coolDowns).toEqual([60_000, 100_000, 100_000]);
    advance(100_000);
    expect((await pass('a')).done(false)).toEqual({ change: 'closed' });
    expect(await open('a')).toMatchObject({ coolDownMs: 30_000 });
  });

  it('a send that left before the circuit opened and fails after does not extend the cool-down', async () => {
    const { pass, refusal } = setup({ failureThreshold: 2, coolDownMs: 30_000 });
    const late = await pass('a');
    (await pass('a')).done(true);
    (await pass('a')).done(true);
    expect(late.done(true)).toBeNull();
    expect((await refusal('a')).retryAt).toEqual(new Date(START + 30_000));
  });
});

describe('delivery gate: memory', () => {
  it('past maxServices it first forgets the services with nothing in flight and no cool-down running', async () => {
    const { pass, refusal, open } = setup({ maxServices: 3, failureThreshold: 2 });
    const held = await pass('held');
    await open('failing');
    (await pass('quiet')).done(true); // one failure, remembered
    await pass('new'); // three known: room is made
    expect((await refusal('failing')).reason).toBe('open');
    // quiet was forgotten: its one failure no longer counts towards the two that open it.
    expect((await pass('quiet')).done(true)).toBeNull();
    held.done(false);
  });

  it('then everything with nothing in flight, cool-downs and all, so the map stays bounded', async () => {
    const { pass, open } = setup({ maxServices: 2, failureThreshold: 1 });
    await open('x');
    await open('y');
    expect((await pass('z')).admitted).toBe(true);
    // x was forgotten: a send to it goes through again, as to a new service.
    expect((await pass('x')).admitted).toBe(true);
  });
});
