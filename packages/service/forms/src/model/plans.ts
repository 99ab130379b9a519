/**
 * Workspace plans: what a workspace may do. Kept in code (not a table) because a plan is a
 * product decision that ships with the code; `workspaces.plan` names one of these.
 *
 * | plan         | link lifetime ceiling | open sessions |
 * | ------------ | --------------------- | ------------- |
 * | `free`       | 7 days                | 100           |
 * | `pro`        | 30 days               | 10,000        |
 * | `enterprise` | 90 days               | no limit      |
 *
 * "Open" means not completed, not withdrawn and not yet closed for good (an answered session
 * that the agent has not completed still counts: it should complete it).
 */
export interface Plan {
  readonly name: string;
  /** The longest `expires_in` (and Ask `respondents.expires_in`) a create may ask for, in seconds. */
  readonly linkLifetimeSeconds: number;
  /** How many sessions may be open at once; `null` = no limit (and no per-create count). */
  readonly openSessions: number | null;
}

const DAY = 86_400;

export const PLANS = {
  free: { name: 'free', linkLifetimeSeconds: 7 * DAY, openSessions: 100 },
  pro: { name: 'pro', linkLifetimeSeconds: 30 * DAY, openSessions: 10_000 },
  enterprise: { name: 'enterprise', linkLifetimeSeconds: 90 * DAY, openSessions: null },
} as const satisfies Record<string, Plan>;

export type PlanName = keyof typeof PLANS;

/** The plan of that name; an unknown name (a plan retired from code) falls back to `free`, the safe floor. */
export function planFor(name: string | null | undefined): Plan {
  return (PLANS as Record<string, Plan>)[name ?? 'free'] ?? PLANS.free;
}

/** Human wording of a number of seconds for messages: "7 days", "20 hours", "90 seconds". */
export function describeSeconds(seconds: number): string {
  const units: Array<[number, string]> = [
    [DAY, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}
