import { describe, expect, it } from 'vitest';
import { afterQuietHours, checkSettings, DEFAULT_SETTINGS } from './settings.ts';

const at = (iso: string) => new Date(iso);

describe('afterQuietHours', () => {
  const night = { quietHours: { start: 22 * 60, end: 7 * 60 }, timeZone: 'UTC' };

  it('outside quiet hours: the moment itself; inside: their end (across midnight too)', () => {
    expect(afterQuietHours(night, at('2030-01-01T12:00:00Z'))).toEqual(at('2030-01-01T12:00:00Z'));
    expect(afterQuietHours(night, at('2030-01-01T23:30:15Z'))).toEqual(at('2030-01-02T07:00:00Z'));
    expect(afterQuietHours(night, at('2030-01-02T03:00:00Z'))).toEqual(at('2030-01-02T07:00:00Z'));
    expect(afterQuietHours(night, at('2030-01-02T07:00:00Z'))).toEqual(at('2030-01-02T07:00:00Z'));
    const lunch = { quietHours: { start: 12 * 60, end: 13 * 60 }, timeZone: 'UTC' };
    expect(afterQuietHours(lunch, at('2030-01-01T12:10:00Z'))).toEqual(at('2030-01-01T13:00:00Z'));
    expect(afterQuietHours({ quietHours: null, timeZone: 'UTC' }, at('2030-01-01T23:00:00Z'))).toEqual(
      at('2030-01-01T23:00:00Z'),
    );
  });

  it('in the person’s time zone, and right across a daylight-saving change', () => {
    const ljubljana = { ...night, timeZone: 'Europe/Ljubljana' };
    // 23:30 CET; quiet until 07:00 CET = 06:00 UTC.
    expect(afterQuietHours(ljubljana, at('2030-01-01T22:30:00Z'))).toEqual(at('2030-01-02T06:00:00Z'));
    // 23:30 CET on the night clocks go forward: 07:00 is CEST then, 05:00 UTC.
    expect(afterQuietHours(ljubljana, at('2030-03-30T22:30:00Z'))).toEqual(at('2030-03-31T05:00:00Z'));
    // And back: 23:30 CEST the night before clocks go back; 07:00 CET is 06:00 UTC.
    expect(afterQuietHours(ljubljana, at('2030-10-26T21:30:00Z'))).toEqual(at('2030-10-27T06:00:00Z'));
    // An end the change skips (02:30 on 31 March): the first moment after it, 03:30 CEST.
    const skipped = { quietHours: { start: 22 * 60, end: 2 * 60 + 30 }, timeZone: 'Europe/Ljubljana' };
    expect(afterQuietHours(skipped, at('2030-03-30T22:30:00Z'))).toEqual(at('2030-03-31T01:30:00Z'));
  });
});

describe('checkSettings', () => {
  it('names the field it refuses', () => {
    const refused = (settings: Partial<typeof DEFAULT_SETTINGS>) => {
      try {
        checkSettings({ ...DEFAULT_SETTINGS, ...settings });
      } catch (error) {
        return (error as { details: { field: string } }).details.field;
      }
      return null;
    };
    expect(refused({ quietHours: { start: 1440, end: 60 } })).toBe('/quietHours/start');
    expect(refused({ quietHours: { start: 60, end: 60 } })).toBe('/quietHours');
    expect(refused({ timeZone: 'Mars/Olympus' })).toBe('/timeZone');
    expect(refused({ timeZone: 'Europe/Ljubljana', quietHours: { start: 0, end: 1439 } })).toBeNull();
  });
});
