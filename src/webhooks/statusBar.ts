// The status bar item of the webhook receiver: hidden until it is first started; then its state and the
// deliveries it took since (a click shows the Webhook Events view), or, after a failure, a warning that
// starts it again on click.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { WebhookService } from './service';

export interface StatusBarCommands {
  readonly showEvents: string;
  readonly start: string;
}

export class WebhookStatusBar extends Disposable {
  /** The item itself (the tests read its text and visibility). */
  readonly item = this._register(vscode.window.createStatusBarItem('portal.webhooks.status', vscode.StatusBarAlignment.Left, 49));
  private shown = false;

  constructor(
    private readonly service: WebhookService,
    private readonly commands: StatusBarCommands,
  ) {
    super();
    this.item.name = 'Portal Webhooks';
    this.update();
    this._register(service.onDidChangeState(() => this.update()));
  }

  /** Whether the item is in the status bar now. */
  get visible(): boolean {
    return this.shown;
  }

  private update(): void {
    const { item, service, commands } = this;
    const state = service.state();
    const { accepted, ignored, refused } = service.counts();
    const received = accepted + ignored;
    switch (state.kind) {
      case 'running': {
        const unsigned = service.unsignedPortals();
        // A warning while any portal takes unsigned deliveries: anyone on the machine can send those events.
        const warning =
          unsigned.length > 0
            ? ` Unsigned deliveries are accepted for ${unsigned.map((label) => `"${label}"`).join(', ')}: any program on this machine can send those events. Set a Secret Key to end that.`
            : '';
        item.text = `$(radio-tower) Webhooks: ${received}${refused > 0 ? ` $(error) ${refused}` : ''}`;
        item.tooltip = `Webhook receiver listening on ${state.host}:${state.port}: ${received} event${received === 1 ? '' : 's'} received, ${refused} refused since it started.${warning} Click to show the Webhook Events.`;
        item.command = commands.showEvents;
        item.backgroundColor = unsigned.length > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
        this.show(true);
        return;
      }
      case 'failed':
        item.text = '$(warning) Webhooks';
        item.tooltip = `${state.message} Click to try again.`;
        item.command = commands.start;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        this.show(true);
        return;
      case 'stopped':
        this.show(false);
    }
  }

  private show(visible: boolean): void {
    this.shown = visible;
    if (visible) this.item.show();
    else this.item.hide();
  }
}
