// The one JSON object the CLI prints first and GET /_emulator/info answers: where the portal is, the demo
// client's credentials and every view of the seed.
import type { Context } from './context';

export interface StartInfo {
  base_url: string;
  client_id: string;
  client_secret: string;
  redirect_uri: string;
  views: Array<{ app_id: string; view_id: string; name: string }>;
}

export function startInfo(ctx: Context): StartInfo {
  const port = new URL(ctx.baseUrl).port;
  return {
    base_url: ctx.baseUrl,
    client_id: ctx.options.clientId,
    client_secret: ctx.options.clientSecret,
    redirect_uri: `http://127.0.0.1:${port}/_emulator/callback`,
    views: ctx.store
      .allApps()
      .flatMap((app) => app.def.views.map((view) => ({ app_id: app.def.app_id, view_id: view.view_id, name: view.name }))),
  };
}
