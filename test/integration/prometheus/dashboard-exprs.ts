// Reads the PromQL of grafana/dashboards/model-gateway.json the way Grafana would send it to
// Prometheus: every panel target's `expr` and every query variable, with Grafana's template
// variables replaced by values that select everything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/repo-root.js';

export const DASHBOARD_PATH = join(REPO_ROOT, 'grafana/dashboards/model-gateway.json');

export interface DashboardTarget {
  panel: string;
  refId: string;
  /** As written in the dashboard. */
  raw: string;
  /** Ready for Prometheus. */
  expr: string;
}

export interface LabelVariable {
  name: string;
  metric: string;
  label: string;
}

interface PanelJson {
  title?: string;
  type?: string;
  targets?: { expr?: string; refId?: string }[];
  panels?: PanelJson[];
}

interface VariableJson {
  type: string;
  name: string;
  definition?: string;
}

export interface DashboardJson {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: PanelJson[];
  templating: { list: VariableJson[] };
}

export function loadDashboard(path = DASHBOARD_PATH): DashboardJson {
  return JSON.parse(readFileSync(path, 'utf8')) as DashboardJson;
}

// `$__rate_interval` must span several scrapes; the test scrapes every second, Grafana's default
// minimum is four scrape intervals, so one minute is generous either way.
const SUBSTITUTIONS: [RegExp, string][] = [
  [/\$__rate_interval|\$\{__rate_interval\}/g, '1m'],
  [/\$__range|\$\{__range\}/g, '5m'],
  [/\$__interval|\$\{__interval\}/g, '15s'],
  [/\$\{?(customer|model)(:[a-z]+)?\}?/g, '.*'],
];

export function substituteVariables(expr: string): string {
  return SUBSTITUTIONS.reduce((e, [re, value]) => e.replace(re, value), expr);
}

export function dashboardTargets(d: DashboardJson = loadDashboard()): DashboardTarget[] {
  const out: DashboardTarget[] = [];
  const visit = (panels: PanelJson[]) => {
    for (const p of panels) {
      for (const target of p.targets ?? []) {
        if (target.expr === undefined) continue;
        out.push({ panel: p.title ?? '(untitled)', refId: target.refId ?? '?', raw: target.expr, expr: substituteVariables(target.expr) });
      }
      if (p.panels !== undefined) visit(p.panels);
    }
  };
  visit(d.panels);
  return out;
}

/** Query variables of the form `label_values(<metric>, <label>)`. */
export function labelVariables(d: DashboardJson = loadDashboard()): LabelVariable[] {
  return d.templating.list
    .filter((v) => v.type === 'query')
    .map((v) => {
      const m = /^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)$/.exec(v.definition ?? '');
      if (m === null) throw new Error(`variable ${v.name}: unsupported definition ${v.definition}`);
      return { name: v.name, metric: m[1], label: m[2] };
    });
}

/** Every `model_gateway_*` identifier an expression reads. */
export function metricNamesIn(expr: string): string[] {
  return [...expr.matchAll(/\bmodel_gateway_[a-zA-Z0-9_]+/g)].map((m) => m[0]);
}
