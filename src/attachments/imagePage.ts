// The page of the image panel: the image as a data: URI, its name and size. No script; the CSP allows
// data: images and the page's one style block, nothing else. Pure: unit-tested in plain node.
import { randomBytes } from 'node:crypto';
import { formatBytes } from './fileNames';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function imagePage(image: { fileName: string; dataUri: string; size: number }): string {
  const nonce = randomBytes(16).toString('base64');
  const name = escapeHtml(image.fileName);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-${nonce}';">
<title>${name}</title>
<style nonce="${nonce}">
  body { margin: 0; background: var(--vscode-editor-background); color: var(--vscode-foreground); }
  main { display: flex; flex-direction: column; align-items: center; justify-content: center; min-height: 95vh; }
  img { max-width: 100%; max-height: 85vh; image-rendering: auto; background: repeating-conic-gradient(#8883 0% 25%, transparent 0% 50%) 50% / 16px 16px; }
  h1 { margin: 1em 0; font-weight: normal; color: var(--vscode-descriptionForeground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); overflow-wrap: anywhere; }
</style>
</head>
<body>
<main>
<img src="${escapeHtml(image.dataUri)}" alt="${name}">
<h1>${name} · ${escapeHtml(formatBytes(image.size))}</h1>
</main>
</body>
</html>`;
}
