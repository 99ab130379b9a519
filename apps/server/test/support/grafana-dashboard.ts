import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The dashboard operators import (deploy/grafana-sess.json). */
export const DASHBOARD_PATH = fileURLToPath(new URL('../../../../deploy/grafana-sess.json', import.meta.url));

interface Panel {
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: Panel[];
}

/** Every PromQL expression of the dashboard: its panels' targets and its query variables. */
export function dashboardExpressions(path = DASHBOARD_PATH): string[] {
  const dashboard = JSON.parse(readFileSync(path, 'utf8')) as {
    panels: Panel[];
    templating?: { list: Array<{ type: string; query?: { query?: string } | string }> };
  };
  const fromPanels = (panels: Panel[]): string[] =>
    panels.flatMap((panel) => [
      ...(panel.targets ?? []).flatMap((target) => (target.expr ? [target.expr] : [])),
      ...fromPanels(panel.panels ?? []),
    ]);
  const variables = (dashboard.templating?.list ?? []).flatMap((variable) => {
    if (variable.type !== 'query') return [];
    const query = typeof variable.query === 'string' ? variable.query : variable.query?.query;
    return query ? [query] : [];
  });
  return [...fromPanels(dashboard.panels), ...variables];
}

/** The `sess_*` metric names an expression reads (a histogram's `_bucket`, `_sum`, `_count` as written). */
export function metricNamesIn(expression: string): string[] {
  return [...new Set(expression.match(/\bsess_[a-z0-9_]+\b/g) ?? [])];
}

/**
 * An expression as Prometheus can evaluate it outside Grafana: the dashboard's variables
 * replaced (`$instance` by a match of every instance, `$__rate_interval` by one minute), and a
 * variable's `label_values(selector, label)` (Grafana's own) as its selector.
 */
export function withoutGrafanaVariables(expression: string): string {
  const labelValues = /^label_values\((.+),\s*[a-zA-Z_]\w*\)$/.exec(expression.trim());
  return (labelValues ? labelValues[1]! : expression).replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*');
}
