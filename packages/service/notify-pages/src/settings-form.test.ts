import { DEFAULT_SETTINGS, type NotificationSettings } from '@sess/notify';
import { NOTIFY_FORM_FIELDS as F, type SettingsFormView } from '@sess/web';
import { describe, expect, it } from 'vitest';
import { parseSettingsForm, settingsToForm } from './settings-form.ts';

/** The body a browser posts for the form as `settingsToForm` shows it (an unticked box is absent). */
function posted(view: SettingsFormView): URLSearchParams {
  const form = new URLSearchParams();
  const box = (name: string, on: boolean) => on && form.set(name, 'on');
  box(F.push, view.push);
  box(F.email, view.email);
  box(F.quiet, view.quiet);
  form.set(F.quietFrom, view.quietFrom);
  form.set(F.quietTo, view.quietTo);
  form.set(F.timeZone, view.timeZone);
  box(F.reminders, view.reminders);
  form.set(F.askUpdates, view.askUpdates);
  box(F.apiKeyForms, view.apiKeyForms);
  return form;
}

describe('the settings form', () => {
  it('reads back what it shows', () => {
    const chosen: NotificationSettings[] = [
      DEFAULT_SETTINGS,
      {
        pushEnabled: false,
        emailEnabled: true,
        quietHours: { start: 21 * 60 + 30, end: 6 * 60 + 45 },
        timeZone: 'Europe/Ljubljana',
        reminders: true,
        askUpdates: 'each_answer',
        apiKeyForms: true,
      },
    ];
    for (const settings of chosen) expect(parseSettingsForm(posted(settingsToForm(settings)))).toEqual({ ok: true, settings });
  });

  it('shows 22:00–07:00 when there are no quiet hours, and takes HH:MM:00 as a browser may send it', () => {
    expect(settingsToForm(DEFAULT_SETTINGS)).toMatchObject({ quiet: false, quietFrom: '22:00', quietTo: '07:00' });
    const form = posted({ ...settingsToForm(DEFAULT_SETTINGS), quiet: true, quietFrom: '23:15:00' });
    expect(parseSettingsForm(form)).toMatchObject({ ok: true, settings: { quietHours: { start: 23 * 60 + 15, end: 7 * 60 } } });
  });

  it('names the field of a problem and keeps what was typed', () => {
    const shown = settingsToForm(DEFAULT_SETTINGS);
    const cases: [Partial<SettingsFormView>, string][] = [
      [{ quiet: true, quietFrom: '24:00' }, '/quietHours/start'],
      [{ quiet: true, quietTo: '' }, '/quietHours/end'],
      [{ timeZone: 'Mars/Olympus' }, '/timeZone'],
      [{ askUpdates: 'sometimes' }, '/askUpdates'],
    ];
    for (const [typed, field] of cases) {
      const parsed = parseSettingsForm(posted({ ...shown, ...typed }));
      expect(parsed, field).toMatchObject({ ok: false, values: typed, error: { field } });
    }
  });
});
