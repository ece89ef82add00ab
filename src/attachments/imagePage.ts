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
  body { display: flex; flex-direction: column; align-items: center; justify-content: center; min-height: 95vh; margin: 0; }
  img { max-width: 100%; max-height: 85vh; image-rendering: auto; background: repeating-conic-gradient(#8883 0% 25%, transparent 0% 50%) 50% / 16px 16px; }
  p { color: var(--vscode-descriptionForeground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
</style>
</head>
<body>
<img src="${escapeHtml(image.dataUri)}" alt="${name}">
<p>${name} · ${escapeHtml(formatBytes(image.size))}</p>
</body>
</html>`;
}
