// Each connection's webhook Secret Key, kept in SecretStorage only (never in settings, never logged), and
// whether the user accepts that portal's unsigned deliveries when it has none (off unless the user turned
// it on: kept there too, out of any workspace's reach). The keys are stable: integration tests read them.
import { secretKeys, type SecretStore } from '../auth/secretKeys';

export const webhookSecretKey = secretKeys.webhookSecret;
export const webhookUnsignedKey = secretKeys.webhookUnsigned;

export class WebhookSecrets {
  constructor(private readonly store: SecretStore) {}

  async get(connectionId: string): Promise<string | undefined> {
    const value = await this.store.get(webhookSecretKey(connectionId));
    return value === undefined || value === '' ? undefined : value;
  }

  /** Setting a Secret Key ends accepting unsigned deliveries: signed ones only from then on. */
  async set(connectionId: string, secret: string): Promise<void> {
    await this.store.store(webhookSecretKey(connectionId), secret);
    await this.store.delete(webhookUnsignedKey(connectionId));
  }

  /** Removes the Secret Key (unsigned deliveries are then refused, unless the user accepts them). */
  async delete(connectionId: string): Promise<void> {
    await this.store.delete(webhookSecretKey(connectionId));
  }

  async acceptsUnsigned(connectionId: string): Promise<boolean> {
    return (await this.store.get(webhookUnsignedKey(connectionId))) === 'true';
  }

  async setAcceptUnsigned(connectionId: string, accept: boolean): Promise<void> {
    if (accept) await this.store.store(webhookUnsignedKey(connectionId), 'true');
    else await this.store.delete(webhookUnsignedKey(connectionId));
  }

  /** Both, for a portal removed. */
  async forget(connectionId: string): Promise<void> {
    await this.delete(connectionId);
    await this.setAcceptUnsigned(connectionId, false);
  }
}
