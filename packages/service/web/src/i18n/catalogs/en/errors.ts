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
} as const;
