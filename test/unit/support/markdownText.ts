// What a person reads of a Markdown string: rendered as VS Code's hovers and chat do (HTML allowed and then
// hidden, links shown by their text), tags dropped, entities decoded.
import MarkdownIt from 'markdown-it';

const renderer = new MarkdownIt({ html: true, linkify: true });

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

export function readableText(markdown: string): string {
  return renderer
    .render(markdown)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_all, name: string) => ENTITIES[name]);
}
