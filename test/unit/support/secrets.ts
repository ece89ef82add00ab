// SecretStorage's interface over a Map, shared by "windows" like the real one is.
import type { SecretStore } from '../../../src/auth/secretKeys';

export class MapSecrets implements SecretStore {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}
