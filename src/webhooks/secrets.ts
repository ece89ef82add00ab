// Each connection's webhook Secret Key, kept in SecretStorage only (never in settings, never logged). The
// key is stable: integration tests read it to check where the secret went.
import { secretKeys, type SecretStore } from '../auth/secretKeys';

export const webhookSecretKey = secretKeys.webhookSecret;

export class WebhookSecrets {
  constructor(private readonly store: SecretStore) {}

  async get(connectionId: string): Promise<string | undefined> {
    const value = await this.store.get(webhookSecretKey(connectionId));
    return value === undefined || value === '' ? undefined : value;
  }

  async set(connectionId: string, secret: string): Promise<void> {
    await this.store.store(webhookSecretKey(connectionId), secret);
  }

  async delete(connectionId: string): Promise<void> {
    await this.store.delete(webhookSecretKey(connectionId));
  }
}
