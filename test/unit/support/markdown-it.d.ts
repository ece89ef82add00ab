// The little of markdown-it the tests use to see a Markdown string as a reader would (it comes with the
// dev tools; no types of its own are installed).
declare module 'markdown-it' {
  interface Options {
    html?: boolean;
    linkify?: boolean;
  }
  export default class MarkdownIt {
    constructor(options?: Options);
    render(source: string): string;
  }
}
