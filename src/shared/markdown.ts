// Text from a portal or a model put into Markdown that VS Code renders (hovers, chat confirmations): it
// must read as the text itself, never as a link, an HTML comment or emphasis that hides part of it.
// Pure: the tools (no vscode) use it as well as the hovers.

/**
 * The text with every ASCII punctuation character backslash-escaped (CommonMark lets any of them be
 * escaped), so no character starts a link, tag, comment, entity, emphasis or code span. Line breaks stay
 * soft: for text meant to read as one paragraph.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * The text as a fenced code block, shown character for character with its line breaks: the fence is
 * longer than any run of backticks in it, so no line of the text can close it early.
 */
export function markdownFence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}
