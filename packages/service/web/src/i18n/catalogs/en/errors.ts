/** The error pages' messages (ICU message syntax): what a person sees when a page fails. */
export const errors = {
  'errors.tryAgain': 'Try again',
  'errors.unavailable.title': 'Sess is briefly unavailable',
  'errors.unavailable.message': 'Sess is briefly unavailable, try again in a moment.',
  'errors.badInput.title': 'Not sent',
  'errors.badInput.message': 'This request contains characters Sess cannot store (NUL, or an unpaired surrogate). Remove them.',
  'errors.notFound.title': 'Not found',
  'errors.notFound.message': 'There is nothing at this address.',
  'errors.internal.title': 'Something went wrong',
  'errors.internal.message': 'Something failed on our side. Try again in a moment.',
  'errors.linkHost.title': 'Answer links only',
  'errors.linkHost.message': 'This address serves answer links only; your Sess is at {url}.',
  'errors.package.title': 'No such package',
  'errors.package.message':
    'There is no package at this address. This server serves {packages}; its home page gives the install lines.',
  'errors.package.none':
    'This server has no client packages to give: its operator builds them with npm run build, which packs them beside the server.',
  'errors.package.home': 'Home page',
  'errors.busy.title': '{state, select, busy {Sess is busy} other {Sess is starting}}',
  'errors.busy.answers':
    '{state, select, busy {Sess is busy right now, and your answer was not sent.} other {Sess is starting right now, and your answer was not sent.}} Go back and send it again in a moment.',
  'errors.busy.pages':
    '{state, select, busy {Sess is busy right now; nothing was changed.} other {Sess is starting right now; nothing was changed.}} Try again in a moment.',
  'errors.busy.other':
    '{state, select, busy {Sess is busy right now and did not take this request; nothing was changed.} other {Sess is starting right now and did not take this request; nothing was changed.}} Go back and try again in a moment.',
} as const;
