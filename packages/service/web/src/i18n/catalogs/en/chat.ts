/** The chat view's messages (the form drawn inside an agent's chat, an MCP App). */
export const chat = {} as const;
