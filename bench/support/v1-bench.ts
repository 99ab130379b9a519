/* What the benches that drive `sess serve` over /v1 share: the form they create, the workspace
 * and key they create it with, and how they learn the address of the server they spawned. */
import type { ChildProcess } from 'node:child_process';
import { createApiKey } from '@sess/accounts';
import { newId } from '@sess/core';
import { type Db, workspaces } from '@sess/db';

/** A small approval form: the body of one POST /v1/sessions. */
export const APPROVE_DEPLOY_BODY = JSON.stringify({
  interaction: {
    mode: 'interactive',
    title: 'Approve this deploy?',
    source: { kind: 'sess_surface', components: [{ type: 'record', label: 'What', fields: { service: 'api' } }] },
    actions: [
      { id: 'approve', label: 'Approve', intent: 'approve' },
      { id: 'stop', label: 'Stop', intent: 'reject' },
    ],
  },
  expires_in: 3600,
});

/** An enterprise workspace (no open-session limit) and an API key for it. */
export async function createBenchWorkspaceKey(db: Db): Promise<string> {
  const workspaceId = newId('workspace');
  await db.insert(workspaces).values({ id: workspaceId, name: 'bench', plan: 'enterprise', createdAt: new Date() });
  const { key } = await createApiKey({ ctx: { db, now: () => new Date() }, input: { workspaceId, name: 'bench' } });
  return key;
}

/** The address a spawned `sess serve` prints once it listens ("… (listening on http://…, …)" on stderr). */
export function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/[^,]+),/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}
