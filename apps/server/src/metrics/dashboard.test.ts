import { describe, expect, it } from 'vitest';
import { dashboardExpressions, metricNamesIn } from '../../test/support/grafana-dashboard.ts';
import { createSessMetrics } from './sess-metrics.ts';

/*
 * deploy/grafana-sess.json cannot rot: every metric it queries is one the registry has (a
 * histogram's series by their suffixes), and every metric the registry has is on it.
 * apps/server/test/metrics-prometheus.test.ts has a real Prometheus evaluate each expression.
 */

const metrics = createSessMetrics();
const registered = new Map(metrics.registry.getMetricsAsArray().map((metric) => [metric.name, String(metric.type)]));
metrics.close();

/** The registry's name for a series name: a histogram's `_bucket`, `_sum` and `_count` are its own. */
function registeredName(series: string): string | undefined {
  if (registered.has(series)) return series;
  const base = series.replace(/_(bucket|sum|count)$/, '');
  return registered.get(base) === 'histogram' ? base : undefined;
}

describe('the Grafana dashboard (deploy/grafana-sess.json)', () => {
  const expressions = dashboardExpressions();

  it('has expressions, each reading at least one metric of Sess', () => {
    expect(expressions.length).toBeGreaterThan(20);
    for (const expression of expressions) expect(metricNamesIn(expression), expression).not.toEqual([]);
  });

  it('queries only metrics the registry has', () => {
    const unknown = expressions.flatMap(metricNamesIn).filter((name) => registeredName(name) === undefined);
    expect(unknown).toEqual([]);
  });

  it('shows every metric the registry has', () => {
    const shown = new Set(expressions.flatMap(metricNamesIn).map(registeredName));
    expect([...registered.keys()].filter((name) => !shown.has(name))).toEqual([]);
  });

  it('would catch a metric renamed in the registry (the check is not empty)', () => {
    expect(registeredName('sess_forms_created_total')).toBe('sess_forms_created_total');
    expect(registeredName('sess_wait_wake_duration_seconds_bucket')).toBe('sess_wait_wake_duration_seconds');
    expect(registeredName('sess_forms_created_totals')).toBeUndefined();
    expect(registeredName('sess_parked_waits_count')).toBeUndefined();
  });
});
