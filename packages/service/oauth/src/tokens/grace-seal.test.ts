import { describe, expect, it } from 'vitest';
import { openGraceResponse, sealGraceResponse } from './grace-seal.ts';
import type { TokenResponse } from './token-response.ts';

const response: TokenResponse = {
  access_token: 'eyJ.a.b',
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: 'sess_rt_new',
  scope: 'sess:interact',
};

describe('grace response seal', () => {
  it('opens only with the rotated token and for its own row', () => {
    const sealed = sealGraceResponse('sess_rt_old', 'rt_1', response);
    expect(sealed).not.toContain('sess_rt_new');
    expect(openGraceResponse('sess_rt_old', 'rt_1', sealed)).toEqual(response);
    expect(openGraceResponse('sess_rt_other', 'rt_1', sealed)).toBeNull();
    expect(openGraceResponse('sess_rt_old', 'rt_2', sealed)).toBeNull();
    expect(openGraceResponse('sess_rt_old', 'rt_1', sealed.replace(/\.(.)/, '.A$1'))).toBeNull();
    expect(openGraceResponse('sess_rt_old', 'rt_1', 'garbage')).toBeNull();
  });
});
