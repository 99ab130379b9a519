/** The chat view's messages (the form drawn inside an agent's chat, an MCP App). */
export const chat = {
  'chat.document.loading': 'Loading the form…',
  'chat.linkOnly':
    'This form is answered on its own page, not in the chat. Open it with the button above, on your phone or here.',
  // What the view's script says (its status line, or in place of the form).
  'chat.script.unavailable': 'This form could not be shown here. Open the link the agent gave you instead.',
  'chat.script.noHost': 'This chat could not show the form. Open the link the agent gave you instead.',
  'chat.script.empty': 'Nothing to show.',
  'chat.script.sending': 'Sending your answer…',
  'chat.script.continue': 'Say "continue" in the chat so the agent reads your answer.',
  'chat.script.notSent': 'Your answer was not sent. Try again.',
  'chat.script.sendFailed': 'Your answer could not be sent from here. Try again, or answer on your phone.',
  'chat.script.openLink': 'Open this link in your browser: {url}',
} as const;
