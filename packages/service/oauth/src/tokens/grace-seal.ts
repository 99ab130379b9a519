import { createSealer } from '@sess/core';
import type { TokenResponse } from './token-response.ts';

/**
 * The refresh grace window keeps the token response a rotation produced, so presenting the
 * rotated token again within the window returns the very same pair. That response holds live
 * tokens, so it is sealed (@sess/core's seal, AES-256-GCM) under a key derived from the rotated
 * refresh token itself: only someone who holds that token can open it, and the database (which
 * stores only the token's SHA-256) cannot. The row id is bound as additional data.
 */
const INFO = 'sess/oauth/refresh-grace/v1';

/** Seals `response` for the row `rowId` under `refreshToken` (the token being rotated). */
export function sealGraceResponse(refreshToken: string, rowId: string, response: TokenResponse): string {
  return createSealer(refreshToken, INFO).seal(rowId, JSON.stringify(response));
}

/** Opens a sealed grace response, or null when it cannot be (wrong token, altered, other row). */
export function openGraceResponse(refreshToken: string, rowId: string, sealed: string): TokenResponse | null {
  try {
    return JSON.parse(createSealer(refreshToken, INFO).open(rowId, sealed)) as TokenResponse;
  } catch {
    return null;
  }
}
