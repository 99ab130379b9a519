import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@sess/testkit';

/** One scrape job: a target `host:port`, its path, and the bearer token it sends. */
export interface ScrapeJob {
  name: string;
  target: string;
  path?: string;
  token: string;
}

/** One series of an instant query's answer. */
export interface Sample {
  metric: Record<string, string>;
  value: number;
}

/** Debian's prometheus, run by the test: its own config, storage and loopback port. */
export interface PrometheusProcess {
  url: string;
  child: ChildProcess;
  /** An instant query (`/api/v1/query`): every series with its value. */
  query(promql: string): Promise<Sample[]>;
  /**
   * Asks `promql` again until `holds` accepts its answer (Prometheus scrapes each second), and
   * resolves with that answer; rejects with the last answer after `timeoutMs`.
   */
  until(promql: string, holds: (samples: Sample[]) => boolean, timeoutMs?: number): Promise<Sample[]>;
  /** Stops prometheus (SIGTERM) and removes its directory. */
  stop(): Promise<void>;
}

const MISSING =
  "prometheus is not installed: install Debian's 'prometheus' package (apt-get install prometheus; scripts/ensure-services.sh does it as root)";

/**
 * Starts `prometheus` scraping `jobs` every second, with a config and a storage directory of its
 * own in a temporary directory and its web API on 127.0.0.1 (a free port): it never uses or
 * touches a prometheus service the package may have set up. Resolves once `/-/ready` answers 200.
 */
export async function startPrometheus(jobs: ScrapeJob[]): Promise<PrometheusProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sess-prometheus-'));
  const port = await freePort();
  const scrapeConfigs = jobs.map((job) => {
    const tokenFile = join(dir, `${job.name}.token`);
    writeFileSync(tokenFile, job.token, { mode: 0o600 });
    return [
      `  - job_name: ${job.name}`,
      `    metrics_path: ${job.path ?? '/metrics'}`,
      '    authorization:',
      `      credentials_file: ${tokenFile}`,
      '    static_configs:',
      `      - targets: ['${job.target}']`,
    ].join('\n');
  });
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    ['global:', '  scrape_interval: 1s', '  scrape_timeout: 1s', 'scrape_configs:', ...scrapeConfigs, ''].join('\n'),
  );
  const child = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    output = (output + chunk).slice(-8000);
  });
  let ended = false;
  let missing = false;
  const exited = new Promise<void>((resolve) =>
    child.on('close', () => {
      ended = true;
      resolve();
    }),
  );
  child.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') missing = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!ended) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };

  /** Polls until `check` answers something, prometheus ends, or time is up. */
  async function poll<T>(check: () => Promise<T | undefined>, timeoutMs: number, describe: () => string): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (missing) throw new Error(MISSING);
      if (ended) throw new Error(`prometheus ended:\n${output}`);
      const found = await check().catch(() => undefined);
      if (found !== undefined) return found;
      if (performance.now() > deadline) throw new Error(`${describe()}\nprometheus said:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  try {
    await poll(
      async () => ((await fetch(`${url}/-/ready`)).ok ? true : undefined),
      30_000,
      () => 'prometheus did not become ready',
    );
  } catch (error) {
    await stop();
    throw error;
  }

  async function query(promql: string): Promise<Sample[]> {
    const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
    };
    if (body.status !== 'success') throw new Error(`prometheus query ${promql}: ${body.error}`);
    return body.data!.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
  }

  return {
    url,
    child,
    query,
    until(promql, holds, timeoutMs = 20_000) {
      let last: Sample[] | undefined;
      return poll(
        async () => {
          last = await query(promql);
          return holds(last) ? last : undefined;
        },
        timeoutMs,
        () => `prometheus: ${promql} never held; last answer ${JSON.stringify(last)}`,
      );
    },
    stop,
  };
}
