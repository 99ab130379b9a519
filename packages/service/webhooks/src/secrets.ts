import { createSealer, newWebhookSecret, type Sealer } from '@sess/core';

/** The sealer of endpoint secrets (additional data: the endpoint id), derived from the server secret. */
export function createWebhookSealer(serverSecret: string): Sealer {
  return createSealer(serverSecret, 'sess:webhooks:secret:v1');
}

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

/** A fresh secret and its sealed form for endpoint `id`. */
export function mintSecret(sealer: Sealer, id: string): { secret: string; sealed: string } {
  const secret = newWebhookSecret();
  return { secret, sealed: sealer.seal(id, secret) };
}

/** The secrets that sign a delivery now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  sealer: Sealer,
  row: { id: string; sealedSecret: string; sealedPreviousSecret: string | null; previousSecretUntil: Date | null },
  at: Date,
): string[] {
  const secrets = [sealer.open(row.id, row.sealedSecret)];
  if (row.sealedPreviousSecret && row.previousSecretUntil && row.previousSecretUntil.getTime() > at.getTime())
    secrets.push(sealer.open(row.id, row.sealedPreviousSecret));
  return secrets;
}
